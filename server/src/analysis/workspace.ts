// The analysis workspace: files (open documents and files read from disk), each parsed at most once per
// version (no Project, no program, no type checker: see parse.ts), module resolution, a cache of
// analyses keyed by the versions of every file each one read, and the symbol/reference indexes.
import { ts, type SourceFile } from "ts-morph";
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";
import { DEFAULT_TEST_GLOBS } from "@agent-lens/settings/defaults";
import type { AgentReference, AgentSymbol, AnalysisWorkspace, FileAnalysis, SeverityOverrides, WorkspaceOptions } from "./api";
import { FileContext, type AnalysisSession, type ContextHost } from "./context";
import type { LibraryAnalysis } from "./library";
import { parseWithParents, wrapSourceFile } from "./parse";
import { mentionsAgentLibrary } from "./prefilter";
import { LIBRARY_ANALYZERS } from "./registry";
import { ModuleResolver } from "./resolve/module-resolver";
import { reportAnalysisError } from "./errors";
import { applySeverity } from "./severity";
import { staticTests } from "./static-tests";
import { findSuppressions, isSuppressed } from "./suppression";
import { FINDING_CODES } from "./types";

/** Files larger than this are not analyzed (generated bundles, data); they yield an empty analysis. */
export const MAX_FILE_CHARS = 4_000_000;

interface FileEntry {
  text: string;
  version: number;
  open: boolean;
  sourceFile?: SourceFile;
}

interface CachedAnalysis {
  version: number;
  depVersions: Map<string, number>;
  raw: FileAnalysis;
}

let versionCounter = 0;

export class Workspace implements AnalysisWorkspace, ContextHost {
  private readonly files = new Map<string, FileEntry>();
  private readonly missing = new Set<string>();
  private readonly cache = new Map<string, CachedAnalysis>();
  private readonly symbolsByFile = new Map<string, AgentSymbol[]>();
  private readonly symbolIndex = new Map<string, AgentSymbol>();
  private readonly resolver: ModuleResolver;
  private readonly readFromDisk: (file: string) => string | undefined;
  private readonly roots: string[];
  private readonly testMatchers: Array<(file: string) => boolean>;
  private severity: SeverityOverrides;

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

  setFile(file: string, text: string): void {
    const prev = this.files.get(file);
    if (prev && prev.text === text) {
      prev.open = true;
      return;
    }
    const structural = !prev;
    this.files.set(file, { text, version: ++versionCounter, open: true });
    if (this.missing.delete(file) || structural || path.basename(file) === "tsconfig.json") this.resolver.invalidate();
  }

  removeFile(file: string): void {
    this.files.delete(file);
    this.missing.delete(file);
    this.cache.delete(file);
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
    const reverse = new Map<string, string[]>();
    for (const [f, cached] of this.cache) {
      for (const dep of cached.raw.dependencies) {
        let list = reverse.get(dep);
        if (!list) reverse.set(dep, (list = []));
        list.push(f);
      }
    }
    const out = new Set<string>();
    const queue = [file];
    while (queue.length) {
      for (const d of reverse.get(queue.pop()!) ?? []) {
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
    for (const cached of this.cache.values()) {
      for (const ref of cached.raw.references) {
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
    for (const [file, cached] of this.cache) {
      for (const ref of cached.raw.references) {
        const maybe = ref.uncertain;
        if (!maybe) continue;
        if (maybe.ids.length) {
          if (!maybe.ids.includes(symbol.id)) continue;
        } else {
          if (ref.kind !== symbol.kind || ref.text !== symbol.name) continue;
          let seen = sees.get(file);
          if (seen === undefined) sees.set(file, (seen = this.imports(file, symbol.file)));
          if (!seen) continue;
        }
        const key = `${ref.file}:${ref.range.start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(ref);
      }
    }
    return out;
  }

  /** Whether `file` is `target` or imports it, directly or through other files (imports and re-exports
   *  as written, whether or not an analysis followed them). */
  private imports(file: string, target: string): boolean {
    const seen = new Set([file]);
    const queue = [file];
    while (queue.length) {
      const current = queue.pop()!;
      if (current === target) return true;
      const sf = this.sourceFile(current)?.compilerNode;
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
    return this.symbolIndex.get(symbolId);
  }

  // ---- ContextHost ----

  sourceFile(file: string): SourceFile | undefined {
    const entry = this.entry(file);
    if (!entry || entry.text.length > MAX_FILE_CHARS) return undefined;
    entry.sourceFile ??= wrapSourceFile(parseWithParents(file, entry.text));
    return entry.sourceFile;
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
    const entry: FileEntry = { text, version: ++versionCounter, open: false };
    this.files.set(file, entry);
    return entry;
  }

  private analyzeRaw(file: string): FileAnalysis {
    const entry = this.entry(file);
    if (!entry) return emptyAnalysis(file);
    const cached = this.cache.get(file);
    if (cached && cached.version === entry.version && this.depsUnchanged(cached)) return cached.raw;

    let raw: FileAnalysis;
    const depVersions = new Map<string, number>();
    try {
      raw = this.compute(file, entry);
    } catch (error) {
      reportAnalysisError(error, `analyze ${file}`);
      raw = emptyAnalysis(file);
    }
    for (const dep of raw.dependencies) depVersions.set(dep, this.files.get(dep)?.version ?? -1);
    this.cache.set(file, { version: entry.version, depVersions, raw });
    this.indexSymbols(file, raw.symbols);
    return raw;
  }

  private compute(file: string, entry: FileEntry): FileAnalysis {
    const isTest = this.isTestFile(file);
    if (entry.text.length > MAX_FILE_CHARS) return isTest || mentionsAgentLibrary(entry.text) ? tooLargeAnalysis(file, entry.text.length) : emptyAnalysis(file);
    if (!isTest && !mentionsAgentLibrary(entry.text)) return emptyAnalysis(file);
    const sourceFile = this.sourceFile(file);
    if (!sourceFile) return emptyAnalysis(file);
    const session: AnalysisSession = { dependencies: new Set(), contexts: new Map(), evalCalls: 0 };
    const ctx = new FileContext(this, session, file, sourceFile);
    const result: FileAnalysis = { ...emptyAnalysis(file), isAgentFile: mentionsAgentLibrary(entry.text) };
    const libraryTests = [];
    for (const analyzer of LIBRARY_ANALYZERS) {
      let part: LibraryAnalysis;
      try {
        part = analyzer.analyze(ctx);
      } catch (error) {
        reportAnalysisError(error, `${analyzer.name} analyzer on ${file}`);
        continue; // an analyzer bug must never take the file's other results down
      }
      result.symbols.push(...part.symbols);
      result.references.push(...part.references);
      result.findings.push(...part.findings);
      result.lenses.push(...part.lenses);
      result.graphs.push(...part.graphs);
      if (part.tests) libraryTests.push(...part.tests);
    }
    const callsEvals = session.evalCalls > 0 || result.lenses.some((l) => l.target.line !== undefined && l.target.file === file);
    if (isTest || callsEvals) {
      try {
        result.tests = staticTests(file, ctx.parsed.sf);
      } catch (error) {
        reportAnalysisError(error, `static tests of ${file}`);
        result.tests = [];
      }
      if (result.tests.length === 1 && result.tests[0]!.kind === "file" && libraryTests.length) result.tests = libraryTests;
    } else if (libraryTests.length) {
      result.tests = libraryTests;
    }
    session.dependencies.delete(file);
    result.dependencies = [...session.dependencies];
    return result;
  }

  private depsUnchanged(cached: CachedAnalysis): boolean {
    for (const [dep, version] of cached.depVersions) {
      const now = this.files.get(dep)?.version ?? (this.entry(dep)?.version ?? -1);
      if (now !== version) return false;
    }
    return true;
  }

  /** Suppression comments and severity settings, applied on every request (they are cheap). */
  private finish(raw: FileAnalysis): FileAnalysis {
    if (raw.findings.length === 0) return raw;
    const text = this.files.get(raw.file)?.text ?? "";
    const suppressions = findSuppressions(text);
    const kept = raw.findings.filter((f) => f.file !== raw.file || !isSuppressed(f, suppressions));
    return { ...raw, findings: applySeverity(kept, this.severity) };
  }

  private indexSymbols(file: string, symbols: AgentSymbol[]): void {
    this.dropSymbols(file);
    this.symbolsByFile.set(file, symbols);
    for (const s of symbols) this.symbolIndex.set(s.id, s);
  }

  private dropSymbols(file: string): void {
    for (const s of this.symbolsByFile.get(file) ?? []) if (this.symbolIndex.get(s.id) === s) this.symbolIndex.delete(s.id);
    this.symbolsByFile.delete(file);
  }
}

export function emptyAnalysis(file: string): FileAnalysis {
  return { file, isAgentFile: false, symbols: [], references: [], findings: [], lenses: [], tests: [], graphs: [], dependencies: [] };
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
