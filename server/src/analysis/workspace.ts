// The analysis workspace: files (open documents and files read from disk), each parsed at most once per
// version (no Project, no program, no type checker: see parse.ts), module resolution, a cache of
// analyses keyed by the versions of every file each one read, the symbol/reference indexes and the
// reverse dependency map (kept as analyses come and go).
//
// Files being edited (setFile with `editing`) keep their syntax tree between versions: an edit that keeps
// the tree's shape (incremental/edit.ts: inside one string's contents or one comment) patches the tree in
// place instead of parsing again, and each library analysis may then carry its previous result over
// (LibraryAnalysis.reuse) instead of extracting again. The invalidation rule: an analysis is reused only
// when every file it read (itself excepted) is at the version it read, and its own file changed by
// patched edits alone since; otherwise the file is analyzed again (on the patched tree when there is one).
import { ts } from "ts-morph";
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";
import { DEFAULT_TEST_GLOBS } from "@agent-lens/settings/defaults";
import type { AgentReference, AgentSymbol, AnalysisWorkspace, FileAnalysis, SeverityOverrides, StaticTest, WorkspaceOptions } from "./api";
import { FileContext, type AnalysisSession, type ContextHost } from "./context";
import { lazyFileAnalysis, materialize, seal, withFindings } from "./file-analysis";
import { classifyEdit, textChange, type AstEdit } from "./incremental/edit";
import { patchAst } from "./incremental/patch";
import type { EditPlace } from "./incremental/shift";
import type { LibraryAnalysis, LibraryOutputs } from "./library";
import { parseWithParents } from "./parse";
import { mentionsAgentLibrary } from "./prefilter";
import { lineOfPosition } from "./ranges";
import { LIBRARY_ANALYZERS } from "./registry";
import { ModuleResolver } from "./resolve/module-resolver";
import { collectingFailures, reportAnalysisError } from "./errors";
import { analysisFailedFinding } from "./analysis-failure";
import { applySeverity } from "./severity";
import { staticTests } from "./static-tests";
import { findSuppressions, isSuppressed } from "./suppression";
import { FINDING_CODES, type Finding } from "./types";

/** Files larger than this are not analyzed (generated bundles, data); they yield an empty analysis. */
export const MAX_FILE_CHARS = 4_000_000;

interface FileEntry {
  text: string;
  version: number;
  open: boolean;
  /** Kept parsed between versions, and patched in place by shape-keeping edits. */
  editing: boolean;
  tree?: ts.SourceFile;
  /** Why this version could not be parsed (nested too deep for the parser): thrown again, not re-parsed. */
  parseError?: unknown;
  /** Edits patched into `tree` since version `fromVersion` (the cached analysis' version, if any). */
  patches?: { fromVersion: number; edits: Array<{ edit: AstEdit; place: EditPlace }> };
}

/** What one analysis of a file was made of: enough to carry it over a patched edit. */
interface CachedAnalysis {
  version: number;
  depVersions: Map<string, number>;
  raw: FileAnalysis;
  /** Per library analyzer (LIBRARY_ANALYZERS order); absent for the empty and too-large analyses. */
  parts?: LibraryAnalysis[];
  evalCalls: number;
}

let versionCounter = 0;
/** How many syntax trees of files not being edited are kept (a tree holds ~30× its text). */
const RECENT_TREES = 8;

/** How analyses were made, counted since the process started (tests check each way is taken). */
export const analysisCounters = { computed: 0, computedOnPatchedTree: 0, carriedOver: 0, patchedEdits: 0 };

export interface SetFileOptions {
  /** The file is being edited (an open document): keep its syntax tree and analysis state between
   *  versions so small edits cost little. Default false: a file read from disk. */
  editing?: boolean;
}

export class Workspace implements AnalysisWorkspace, ContextHost {
  private readonly files = new Map<string, FileEntry>();
  private readonly missing = new Set<string>();
  private readonly cache = new Map<string, CachedAnalysis>();
  /** file → the files whose cached analysis read it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Indexed symbols per file; a file whose symbols were not read yet is in `unindexed`. */
  private readonly symbolsByFile = new Map<string, AgentSymbol[]>();
  private readonly unindexed = new Set<string>();
  private readonly symbolIndex = new Map<string, AgentSymbol>();
  private readonly resolver: ModuleResolver;
  private readonly readFromDisk: (file: string) => string | undefined;
  private readonly roots: string[];
  private readonly testMatchers: Array<(file: string) => boolean>;
  private severity: SeverityOverrides;
  /** Files not being edited whose syntax trees are kept for now (oldest first). */
  private readonly recentTrees = new Set<string>();
  /** The last analysis made only to rebuild a summary. */
  private rehydrated: { file: string; version: number; raw: FileAnalysis } | undefined;

  constructor(options: WorkspaceOptions) {
    this.roots = options.roots.map((r) => path.resolve(r));
    this.readFromDisk = options.readFile ?? readFileOrUndefined;
    this.severity = { ...(options.severity ?? {}) };
    this.resolver = new ModuleResolver(this.roots, {
      fileExists: (f) => this.entry(f) !== undefined,
      readFile: (f) => this.entry(f)?.text,
    });
    const globs = options.testGlobs?.length ? options.testGlobs : DEFAULT_TEST_GLOBS;
    this.testMatchers = globs.map((g) => picomatch(g, { dot: true }));
  }

  setFile(file: string, text: string, options?: SetFileOptions): void {
    const editing = options?.editing ?? false;
    const prev = this.files.get(file);
    if (prev && prev.text === text) {
      prev.open = true;
      prev.editing = editing;
      return;
    }
    const entry: FileEntry = { text, version: ++versionCounter, open: true, editing };
    if (prev && editing && prev.editing && prev.tree) this.patchInto(file, prev, entry);
    this.files.set(file, entry);
    if (this.missing.delete(file) || !prev || path.basename(file) === "tsconfig.json") this.resolver.invalidate();
  }

  /** Carries the previous version's tree over when the edit keeps its shape (patched in place). */
  private patchInto(file: string, prev: FileEntry, entry: FileEntry): void {
    const sf = prev.tree!;
    const change = textChange(prev.text, entry.text);
    const edit = change && classifyEdit(sf, entry.text, change);
    if (!edit) return;
    const place: EditPlace = { edit, line: lineOfPosition(sf.getLineStarts(), edit.start), file };
    const cached = this.cache.get(file);
    if (cached) seal(cached.raw); // its unread parts would be built from the patched tree
    patchAst(sf, edit, entry.text);
    analysisCounters.patchedEdits++;
    entry.tree = prev.tree;
    const earlier = prev.patches ?? { fromVersion: prev.version, edits: [] };
    entry.patches = { fromVersion: earlier.fromVersion, edits: [...earlier.edits, { edit, place }] };
  }

  removeFile(file: string): void {
    this.files.delete(file);
    this.missing.delete(file);
    this.setCached(file, undefined);
    this.dropSymbols(file);
    this.resolver.invalidate();
  }

  setSeverity(overrides: SeverityOverrides): void {
    this.severity = { ...overrides };
  }

  analyze(file: string): FileAnalysis {
    const raw = this.analyzeRaw(file);
    return this.finish(raw);
  }

  dependentsOf(file: string): string[] {
    const out = new Set<string>();
    const queue = [file];
    while (queue.length) {
      for (const d of this.dependents.get(queue.pop()!) ?? []) {
        if (d !== file && !out.has(d)) {
          out.add(d);
          queue.push(d);
        }
      }
    }
    return [...out];
  }

  referencesTo(symbolId: string): AgentReference[] {
    const out: AgentReference[] = [];
    const seen = new Set<string>();
    for (const raw of this.currentAnalyses()) {
      for (const ref of raw.references) {
        if (ref.targetId !== symbolId) continue;
        const key = `${ref.file}:${ref.range.start}:${ref.role}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(ref);
      }
    }
    return out;
  }

  uncertainReferencesTo(symbol: AgentSymbol): AgentReference[] {
    const out: AgentReference[] = [];
    const seen = new Set<string>();
    const sees = new Map<string, boolean>(); // file → whether it imports the symbol's file, directly or not
    for (const raw of this.currentAnalyses()) {
      const file = raw.file;
      for (const ref of raw.references) {
        const maybe = ref.uncertain;
        if (!maybe) continue;
        if (maybe.ids.length) {
          if (!maybe.ids.includes(symbol.id)) continue;
        } else {
          if (ref.kind !== symbol.kind || ref.text !== symbol.name) continue;
          let importsIt = sees.get(file);
          if (importsIt === undefined) sees.set(file, (importsIt = this.imports(file, symbol.file)));
          if (!importsIt) continue;
        }
        const key = `${ref.file}:${ref.range.start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(ref);
      }
    }
    return out;
  }

  /** The analyses of every analyzed file at their files' current versions (stale ones are redone). */
  private currentAnalyses(): FileAnalysis[] {
    return [...this.cache.keys()].map((file) => this.analyzeRaw(file));
  }

  /** Whether `file` is `target` or imports it, directly or through other files (imports and re-exports
   *  as written, whether or not an analysis followed them). */
  private imports(file: string, target: string): boolean {
    const seen = new Set([file]);
    const queue = [file];
    while (queue.length) {
      const current = queue.pop()!;
      if (current === target) return true;
      let sf: ts.SourceFile | undefined;
      try {
        sf = this.tree(current);
      } catch {
        continue; // a file the parser cannot read (its own analysis says so) imports nothing we can see
      }
      for (const stmt of sf?.statements ?? []) {
        const spec = (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier) ? stmt.moduleSpecifier.text : undefined;
        const next = spec && this.resolver.resolve(current, spec);
        if (next && !seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return false;
  }

  symbol(symbolId: string): AgentSymbol | undefined {
    const file = symbolId.slice(0, symbolId.indexOf("#"));
    if (this.cache.has(file)) this.analyzeRaw(file); // brought up to date (its symbols re-indexed)
    if (this.unindexed.has(file)) this.indexSymbols(file);
    const found = this.symbolIndex.get(symbolId);
    if (found || !this.unindexed.size) return found;
    for (const f of [...this.unindexed]) this.indexSymbols(f);
    return this.symbolIndex.get(symbolId);
  }

  // ---- ContextHost ----

  tree(file: string): ts.SourceFile | undefined {
    const entry = this.entry(file);
    if (!entry || entry.text.length > MAX_FILE_CHARS) return undefined;
    if (entry.parseError !== undefined) throw entry.parseError;
    if (!entry.tree) {
      try {
        entry.tree = parseWithParents(file, entry.text);
      } catch (error) {
        entry.parseError = error;
        throw error;
      }
      if (!entry.editing) this.keepTree(file, entry);
    }
    return entry.tree;
  }

  resolveModule(fromFile: string, specifier: string): string | undefined {
    return this.resolver.resolve(fromFile, specifier);
  }

  isTestFile(file: string): boolean {
    const base = path.basename(file);
    const rels = this.roots.map((r) => path.relative(r, file)).filter((r) => !r.startsWith("..") && !path.isAbsolute(r));
    const candidates = rels.length ? rels.map((r) => r.split(path.sep).join("/")) : [base];
    return this.testMatchers.some((m) => candidates.some((c) => m(c)));
  }

  // ---- internals ----

  private entry(file: string): FileEntry | undefined {
    const existing = this.files.get(file);
    if (existing) return existing;
    if (this.missing.has(file)) return undefined;
    const text = this.readFromDisk(file);
    if (text === undefined) {
      this.missing.add(file);
      return undefined;
    }
    const entry: FileEntry = { text, version: ++versionCounter, open: false, editing: false };
    this.files.set(file, entry);
    return entry;
  }

  private analyzeRaw(file: string): FileAnalysis {
    const entry = this.entry(file);
    if (!entry) return emptyAnalysis(file);
    const cached = this.cache.get(file);
    if (cached && cached.version === entry.version && this.depsUnchanged(cached)) return cached.raw;

    let next: CachedAnalysis | undefined;
    const patches = entry.patches;
    entry.patches = undefined; // from here on the cache will match this version
    if (patches && cached?.parts && cached.version === patches.fromVersion && this.depsUnchanged(cached)) next = this.carryOver(file, entry, cached, patches.edits);
    if (next) analysisCounters.carriedOver++;
    else {
      analysisCounters.computed++;
      if (patches) analysisCounters.computedOnPatchedTree++;
      try {
        next = this.compute(file, entry);
      } catch (error) {
        reportAnalysisError(error, `analyze ${file}`);
        const raw = emptyAnalysis(file);
        raw.findings.push(analysisFailedFinding(file, [{ error, where: "analyzing the file" }]));
        next = { version: entry.version, depVersions: new Map(), raw, evalCalls: 0 };
      }
    }
    this.setCached(file, next);
    this.markUnindexed(file);
    if (!entry.editing) this.settle(file, entry, next);
    return next.raw;
  }

  /**
   * A file not being edited keeps its analysis' data and nothing it was built from: every part is read
   * now, a hover summary not built yet is rebuilt from a fresh analysis if ever asked for, and the
   * extraction (its model) and the syntax tree are let go — the tree stays only among the few most recently
   * parsed ones (files importing it are usually analyzed next).
   */
  private settle(file: string, entry: FileEntry, cached: CachedAnalysis): void {
    const raw = cached.raw;
    materialize(raw);
    for (const symbol of raw.symbols) {
      const d = Object.getOwnPropertyDescriptor(symbol, "summary");
      if (!d?.get) continue;
      const id = symbol.id;
      Object.defineProperty(symbol, "summary", {
        enumerable: true,
        configurable: true,
        get: () => {
          const summary = this.freshSummary(file, id);
          Object.defineProperty(symbol, "summary", { value: summary, enumerable: true, writable: true, configurable: true });
          return summary;
        },
      });
    }
    cached.parts = undefined;
    this.keepTree(file, entry);
  }

  /** A summary from a new analysis of the file (its settled one let its model go). */
  private freshSummary(file: string, symbolId: string): string | undefined {
    const entry = this.files.get(file);
    if (!entry) return undefined;
    let fresh = this.rehydrated;
    if (fresh?.file !== file || fresh.version !== entry.version) {
      try {
        fresh = this.rehydrated = { file, version: entry.version, raw: this.compute(file, entry).raw };
      } catch (error) {
        reportAnalysisError(error, `summary of ${symbolId}`);
        return undefined;
      }
      this.keepTree(file, entry);
    }
    return fresh.raw.symbols.find((s) => s.id === symbolId)?.summary;
  }

  /** Keeps the syntax trees of the most recently analyzed files not being edited; drops the oldest. */
  private keepTree(file: string, entry: FileEntry): void {
    if (!entry.tree) return;
    this.recentTrees.delete(file);
    this.recentTrees.add(file);
    for (const old of this.recentTrees) {
      if (this.recentTrees.size <= RECENT_TREES) break;
      this.recentTrees.delete(old);
      const e = this.files.get(old);
      if (e && !e.editing) e.tree = undefined;
    }
  }

  /** The cached analysis carried over the patched edits, or undefined when some library cannot. */
  private carryOver(file: string, entry: FileEntry, cached: CachedAnalysis, edits: Array<{ edit: AstEdit; place: EditPlace }>): CachedAnalysis | undefined {
    // the same gate as compute(): a file that no longer qualifies gets the empty analysis there
    if (entry.text.length > MAX_FILE_CHARS || (!this.isTestFile(file) && !mentionsAgentLibrary(entry.text))) return undefined;
    let parts: LibraryAnalysis[] = cached.parts!;
    for (const { edit, place } of edits) {
      const next: LibraryAnalysis[] = [];
      for (const part of parts) {
        const carried = part.reuse?.(edit, place, entry.text);
        if (!carried) return undefined;
        next.push(carried);
      }
      parts = next;
    }
    const raw = this.assemble(file, entry, parts, cached.evalCalls, cached.raw.dependencies);
    return { version: entry.version, depVersions: cached.depVersions, raw, parts, evalCalls: cached.evalCalls };
  }

  /** A file's analysis; when any part of it failed (collected through errors.ts), it carries an
   *  `analysis-failed` finding and is never carried over an edit (its parts are incomplete). */
  private compute(file: string, entry: FileEntry): CachedAnalysis {
    const { result, failures } = collectingFailures(() => this.computeParts(file, entry));
    if (!failures.length) return result;
    result.raw.findings.push(analysisFailedFinding(file, failures));
    result.parts = undefined;
    return result;
  }

  private computeParts(file: string, entry: FileEntry): CachedAnalysis {
    const plain = (raw: FileAnalysis): CachedAnalysis => ({ version: entry.version, depVersions: new Map(), raw, evalCalls: 0 });
    const isTest = this.isTestFile(file);
    if (entry.text.length > MAX_FILE_CHARS) return plain(isTest || mentionsAgentLibrary(entry.text) ? tooLargeAnalysis(file, entry.text.length) : emptyAnalysis(file));
    if (!isTest && !mentionsAgentLibrary(entry.text)) return plain(emptyAnalysis(file));
    let sf: ts.SourceFile | undefined;
    try {
      sf = this.tree(file);
    } catch (error) {
      reportAnalysisError(error, "parsing the file"); // nested too deep for the parser: said, not skipped
      return plain(emptyAnalysis(file));
    }
    if (!sf) return plain(emptyAnalysis(file));
    const session: AnalysisSession = { dependencies: new Set(), contexts: new Map(), evalCalls: 0 };
    const ctx = new FileContext(this, session, file, sf);
    const parts: LibraryAnalysis[] = [];
    for (const analyzer of LIBRARY_ANALYZERS) {
      try {
        parts.push(analyzer.analyze(ctx));
      } catch (error) {
        reportAnalysisError(error, `${analyzer.name} analyzer on ${file}`);
        parts.push(failedPart()); // an analyzer bug must never take the file's other results down
      }
    }
    session.dependencies.delete(file);
    const dependencies = [...session.dependencies];
    const depVersions = new Map<string, number>();
    for (const dep of dependencies) depVersions.set(dep, this.files.get(dep)?.version ?? -1);
    return { version: entry.version, depVersions, raw: this.assemble(file, entry, parts, session.evalCalls, dependencies), parts, evalCalls: session.evalCalls };
  }

  /** The file's analysis from its libraries' parts: findings now, the rest on first read. */
  private assemble(file: string, entry: FileEntry, parts: LibraryAnalysis[], evalCalls: number, dependencies: string[]): FileAnalysis {
    const findings: Finding[] = [];
    for (const part of parts) findings.push(...part.findings);
    let outputs: LibraryOutputs | undefined;
    const allOutputs = (): LibraryOutputs => {
      if (outputs) return outputs;
      outputs = { symbols: [], references: [], lenses: [], graphs: [] };
      const tests: StaticTest[] = [];
      for (const part of parts) {
        let o: LibraryOutputs;
        try {
          o = part.outputs();
        } catch (error) {
          reportAnalysisError(error, `outputs of ${file}`);
          continue;
        }
        outputs.symbols.push(...o.symbols);
        outputs.references.push(...o.references);
        outputs.lenses.push(...o.lenses);
        outputs.graphs.push(...o.graphs);
        if (o.tests) tests.push(...o.tests);
      }
      outputs.tests = tests;
      return outputs;
    };
    const isTest = this.isTestFile(file);
    const sf = this.tree(file); // this version's tree (the file may be gone when tests are read)
    const tests = () => {
      const libraryTests = allOutputs().tests ?? [];
      const callsEvals = evalCalls > 0 || allOutputs().lenses.some((l) => l.target.line !== undefined && l.target.file === file);
      if (!isTest && !callsEvals) return libraryTests;
      let found: StaticTest[];
      try {
        found = sf ? staticTests(file, sf) : [];
      } catch (error) {
        reportAnalysisError(error, `static tests of ${file}`);
        found = [];
      }
      return found.length === 1 && found[0]!.kind === "file" && libraryTests.length ? libraryTests : found;
    };
    const definitions = parts.reduce((n, p) => n + p.definitions, 0);
    return lazyFileAnalysis(file, mentionsAgentLibrary(entry.text), findings, dependencies, definitions, allOutputs, tests);
  }

  private depsUnchanged(cached: CachedAnalysis): boolean {
    for (const [dep, version] of cached.depVersions) {
      const now = this.files.get(dep)?.version ?? (this.entry(dep)?.version ?? -1);
      if (now !== version) return false;
    }
    return true;
  }

  /** Sets (or drops) a file's cached analysis, keeping the reverse dependency map in step. */
  private setCached(file: string, next: CachedAnalysis | undefined): void {
    const prev = this.cache.get(file);
    const before = prev?.raw.dependencies ?? [];
    const after = next?.raw.dependencies ?? [];
    if (before !== after) {
      for (const dep of before) this.dependents.get(dep)?.delete(file);
      for (const dep of after) {
        let set = this.dependents.get(dep);
        if (!set) this.dependents.set(dep, (set = new Set()));
        set.add(file);
      }
    }
    if (next) this.cache.set(file, next);
    else this.cache.delete(file);
  }

  /** Suppression comments and severity settings, applied on every request (they are cheap). */
  private finish(raw: FileAnalysis): FileAnalysis {
    if (raw.findings.length === 0) return raw;
    const text = this.files.get(raw.file)?.text ?? "";
    const suppressions = findSuppressions(text);
    const kept = raw.findings.filter((f) => f.file !== raw.file || !isSuppressed(f, suppressions));
    return withFindings(raw, applySeverity(kept, this.severity));
  }

  /** The file's symbols are indexed when first asked for (reading them builds them). */
  private markUnindexed(file: string): void {
    this.dropSymbols(file);
    this.unindexed.add(file);
  }

  private indexSymbols(file: string): void {
    this.unindexed.delete(file);
    const symbols = this.cache.get(file)?.raw.symbols ?? [];
    this.symbolsByFile.set(file, symbols);
    for (const s of symbols) this.symbolIndex.set(s.id, s);
  }

  private dropSymbols(file: string): void {
    this.unindexed.delete(file);
    for (const s of this.symbolsByFile.get(file) ?? []) if (this.symbolIndex.get(s.id) === s) this.symbolIndex.delete(s.id);
    this.symbolsByFile.delete(file);
  }
}

function failedPart(): LibraryAnalysis {
  return { findings: [], definitions: 0, outputs: () => ({ symbols: [], references: [], lenses: [], graphs: [] }) };
}

export function emptyAnalysis(file: string): FileAnalysis {
  return { file, isAgentFile: false, symbols: [], references: [], findings: [], lenses: [], tests: [], graphs: [], dependencies: [], definitions: 0 };
}

/** A file the analysis would read but will not (too large): one analysis-skipped finding saying so. */
function tooLargeAnalysis(file: string, chars: number): FileAnalysis {
  const message = `Not analyzed: the file has ${chars.toLocaleString("en-US")} characters, over the ${MAX_FILE_CHARS.toLocaleString("en-US")} limit, so nothing in it is checked.`;
  const range = { start: 0, end: 0, startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };
  return { ...emptyAnalysis(file), findings: [{ code: "analysis-skipped", severity: FINDING_CODES["analysis-skipped"], message, file, range }] };
}

function readFileOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
