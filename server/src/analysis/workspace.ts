// The analysis workspace: files (file-store.ts) with module resolution, a cache of analyses keyed by the
// versions of every file each one read (analysis-cache.ts), and the symbol index and reference queries
// (symbol-index.ts). This class decides when a file is analyzed, carried over or let go.
//
// Files being edited (setFile with `editing`) keep their syntax tree between versions: an edit that keeps
// the tree's shape (incremental/edit.ts: inside one string's contents or one comment) patches the tree in
// place instead of parsing again, and each library analysis may then carry its previous result over
// (LibraryAnalysis.reuse) instead of extracting again. The invalidation rule: an analysis is reused only
// when every file it read (itself excepted) is at the version it read, and its own file changed by
// patched edits alone since; otherwise the file is analyzed again (on the patched tree when there is one).
import type { ts } from "ts-morph";
import * as path from "node:path";
import { evalFileMatcher } from "@agent-lens/files/eval-files";
import { DEFAULT_TEST_GLOBS } from "@agent-lens/settings/defaults";
import type { AgentReference, AgentSymbol, AnalysisWorkspace, FileAnalysis, SeverityOverrides, WorkspaceOptions } from "./api";
import { AnalysisCache, type CachedAnalysis } from "./analysis-cache";
import { FileContext, type AnalysisSession, type ContextHost } from "./context";
import { assembleAnalysis, emptyAnalysis, failedPart, seal, tooLargeAnalysis, withFindings } from "./file-analysis";
import { FileStore, MAX_FILE_CHARS, type FileEntry } from "./file-store";
import { classifyEdit, textChange, type AstEdit, type EditPlace } from "./incremental/edit";
import { patchAst, spliceMember } from "./incremental/patch";
import { memberSplice } from "./incremental/splice";
import { forgetNameUses } from "./name-uses";
import { adoptMember } from "./parse";
import type { LibraryAnalysis } from "./library";
import { mentionsAgentLibrary } from "./prefilter";
import { lineOfPosition } from "./ranges";
import { LIBRARY_ANALYZERS } from "./registry";
import { ModuleResolver } from "./resolve/module-resolver";
import { Settler } from "./settled";
import { collectingFailures, reportAnalysisError } from "./errors";
import { analysisFailedFinding } from "./analysis-failure";
import { applySeverity } from "./severity";
import { findSuppressions, isSuppressed } from "./suppression";
import { importsFile, referencesTo, SymbolIndex, uncertainReferencesTo } from "./symbol-index";


/** How analyses were made, counted since the process started (tests check each way is taken). */
export const analysisCounters = { computed: 0, computedOnPatchedTree: 0, carriedOver: 0, patchedEdits: 0, splicedEdits: 0 };

export interface SetFileOptions {
  /** The file is being edited (an open document): keep its syntax tree and analysis state between
   *  versions so small edits cost little. Default false: a file read from disk. */
  editing?: boolean;
}

export class Workspace implements AnalysisWorkspace, ContextHost {
  private readonly files: FileStore;
  private readonly cache = new AnalysisCache();
  private readonly symbols = new SymbolIndex((file) => this.cache.get(file)?.raw.symbols ?? []);
  private readonly resolver: ModuleResolver;
  private readonly roots: string[];
  private readonly isEvalFile: (file: string) => boolean;
  private readonly testFiles = new Map<string, boolean>(); // isTestFile's answers: asked several times per analysis, the globs are fixed
  private severity: SeverityOverrides;
  private readonly settler: Settler;

  constructor(options: WorkspaceOptions) {
    this.roots = options.roots.map((r) => path.resolve(r));
    this.files = new FileStore(options.readFile);
    this.severity = { ...(options.severity ?? {}) };
    this.resolver = new ModuleResolver(this.roots, {
      fileExists: (f) => this.files.entry(f) !== undefined,
      readFile: (f) => this.files.entry(f)?.text,
    });
    const globs = options.testGlobs?.length ? options.testGlobs : DEFAULT_TEST_GLOBS;
    this.isEvalFile = evalFileMatcher(globs, this.roots);
    const fresh = (file: string): FileAnalysis => {
      const entry = this.files.known(file)!;
      const raw = this.compute(file, entry).raw;
      this.files.keepTree(file, entry);
      return raw;
    };
    this.settler = new Settler({ versionOf: (file) => this.files.known(file)?.version, analyze: fresh }, options.outputsOnDemand ?? false);
  }

  setFile(file: string, text: string, options?: SetFileOptions): void {
    const editing = options?.editing ?? false;
    const carry = (prev: FileEntry, entry: FileEntry) => {
      if (editing && prev.editing && prev.tree) this.patchInto(file, prev, entry);
    };
    if (this.files.set(file, text, editing, carry)) this.resolver.invalidate();
  }

  /** Carries the previous version's tree over when the edit keeps its shape (patched in place), or when
   *  it lies inside one object literal member (that member parsed again and spliced in). */
  private patchInto(file: string, prev: FileEntry, entry: FileEntry): void {
    const sf = prev.tree!;
    const change = textChange(prev.text, entry.text);
    if (!change) return;
    const edit = classifyEdit(sf, entry.text, change);
    const splice = edit ? undefined : memberSplice(sf, entry.text, change);
    if (!edit && !splice) return;
    const cached = this.cache.get(file);
    if (cached) seal(cached.raw); // its unread parts would be built from the patched tree
    const earlier = prev.patches ?? { fromVersion: prev.version, edits: [], structural: false };
    if (edit) {
      const place: EditPlace = { edit, line: lineOfPosition(sf.getLineStarts(), edit.start), file };
      patchAst(sf, edit, entry.text);
      analysisCounters.patchedEdits++;
      entry.patches = { ...earlier, edits: [...earlier.edits, { edit, place }] };
    } else {
      try {
        adoptMember(sf, splice!.old, splice!.replacement, splice!.old.parent);
        spliceMember(sf, splice!, entry.text);
      } catch (error) {
        reportAnalysisError(error, `splicing an edit into ${file}`); // a bug, said; the new text is parsed afresh
        return;
      }
      forgetNameUses(sf);
      analysisCounters.splicedEdits++;
      entry.patches = { ...earlier, structural: true }; // the analysis is made again, on this tree
    }
    entry.tree = prev.tree;
  }

  removeFile(file: string): void {
    this.files.remove(file);
    this.testFiles.delete(file);
    this.cache.set(file, undefined);
    this.symbols.drop(file);
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
    return this.cache.dependentsOf(file);
  }

  referencesTo(symbolId: string): AgentReference[] {
    return referencesTo(this.currentAnalyses(), symbolId);
  }

  uncertainReferencesTo(symbol: AgentSymbol): AgentReference[] {
    const imports = (file: string, target: string) => importsFile(file, target, (f) => this.tree(f), (from, spec) => this.resolver.resolve(from, spec));
    return uncertainReferencesTo(this.currentAnalyses(), symbol, imports);
  }

  /** The analyses of every analyzed file at their files' current versions (stale ones are redone). */
  private currentAnalyses(): FileAnalysis[] {
    return this.cache.files().map((file) => this.analyzeRaw(file));
  }

  symbol(symbolId: string): AgentSymbol | undefined {
    const file = symbolId.slice(0, symbolId.indexOf("#"));
    if (this.cache.has(file)) this.analyzeRaw(file); // brought up to date (its symbols re-indexed)
    return this.symbols.find(symbolId);
  }

  // ---- ContextHost ----

  tree(file: string): ts.SourceFile | undefined {
    return this.files.tree(file);
  }

  resolveModule(fromFile: string, specifier: string): string | undefined {
    return this.resolver.resolve(fromFile, specifier);
  }

  isTestFile(file: string): boolean {
    let is = this.testFiles.get(file);
    if (is === undefined) this.testFiles.set(file, (is = this.isEvalFile(file)));
    return is;
  }

  // ---- internals ----

  private readonly versionOf = (file: string): number => this.files.versionOf(file);

  private analyzeRaw(file: string): FileAnalysis {
    const entry = this.files.entry(file);
    if (!entry) return emptyAnalysis(file);
    const cached = this.cache.get(file);
    if (cached && cached.version === entry.version && this.cache.depsUnchanged(cached, this.versionOf)) return cached.raw;

    let next: CachedAnalysis | undefined;
    const patches = entry.patches;
    entry.patches = undefined; // from here on the cache will match this version
    // One patched edit at most: the tree already holds every pending edit, so a part re-read from it while
    // carrying over an earlier edit would be moved again by the later ones (stale offsets, found by
    // test/analysis/incremental-splice.test.ts). Several edits between two analyses analyze again.
    if (patches?.edits.length === 1 && !patches.structural && cached?.parts && cached.version === patches.fromVersion && this.cache.depsUnchanged(cached, this.versionOf)) next = this.carryOver(file, entry, cached, patches.edits);
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
    this.cache.set(file, next);
    this.symbols.invalidate(file);
    if (!entry.editing) this.settle(file, entry, next);
    return next.raw;
  }

  /** A file not being edited keeps its analysis' data and nothing it was built from (settled.ts); its
   *  syntax tree stays only among the few most recently parsed ones (files importing it are usually
   *  analyzed next). */
  private settle(file: string, entry: FileEntry, cached: CachedAnalysis): void {
    this.settler.settle(file, entry.version, cached.raw);
    cached.parts = undefined;
    this.files.keepTree(file, entry);
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
    if (entry.text.length > MAX_FILE_CHARS) return plain(isTest || mentionsAgentLibrary(entry.text) ? tooLargeAnalysis(file, entry.text.length, MAX_FILE_CHARS) : emptyAnalysis(file));
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
    for (const dep of dependencies) depVersions.set(dep, this.files.known(dep)?.version ?? -1);
    return { version: entry.version, depVersions, raw: this.assemble(file, entry, parts, session.evalCalls, dependencies), parts, evalCalls: session.evalCalls };
  }

  /** The file's analysis from its libraries' parts: findings now, the rest on first read. */
  private assemble(file: string, entry: FileEntry, parts: LibraryAnalysis[], evalCalls: number, dependencies: string[]): FileAnalysis {
    // this version's tree (the file may be gone when tests are read)
    return assembleAnalysis({ file, isAgentFile: mentionsAgentLibrary(entry.text), isTest: this.isTestFile(file), tree: this.tree(file) }, parts, evalCalls, dependencies);
  }

  /** Suppression comments and severity settings, applied on every request (they are cheap). */
  private finish(raw: FileAnalysis): FileAnalysis {
    if (raw.findings.length === 0) return raw;
    const text = this.files.known(raw.file)?.text ?? "";
    const suppressions = findSuppressions(text);
    const kept = raw.findings.filter((f) => f.file !== raw.file || !isSuppressed(f, suppressions));
    return withFindings(raw, applySeverity(kept, this.severity));
  }
}
