// The workspace's analyses, one per file, each keyed by the versions of every file it read, and the
// reverse dependency map (file → the files whose analysis read it), kept in step as analyses come and go.
import type { FileAnalysis } from "./api";
import type { LibraryAnalysis } from "./library";

/** What one analysis of a file was made of: enough to carry it over a patched edit. */
export interface CachedAnalysis {
  version: number;
  depVersions: Map<string, number>;
  raw: FileAnalysis;
  /** Per library analyzer (LIBRARY_ANALYZERS order); absent for the empty and too-large analyses, and once
   *  the analysis is settled (its model let go). */
  parts?: LibraryAnalysis[];
  evalCalls: number;
}

export class AnalysisCache {
  private readonly byFile = new Map<string, CachedAnalysis>();
  /** file → the files whose cached analysis read it. */
  private readonly dependents = new Map<string, Set<string>>();

  get(file: string): CachedAnalysis | undefined {
    return this.byFile.get(file);
  }

  has(file: string): boolean {
    return this.byFile.has(file);
  }

  /** The files with a cached analysis (current or not). */
  files(): string[] {
    return [...this.byFile.keys()];
  }

  /** Whether every file the analysis read (itself excepted) is still at the version it read. */
  depsUnchanged(cached: CachedAnalysis, versionOf: (file: string) => number): boolean {
    for (const [dep, version] of cached.depVersions) if (versionOf(dep) !== version) return false;
    return true;
  }

  /** Sets (or drops) a file's analysis, keeping the reverse dependency map in step. */
  set(file: string, next: CachedAnalysis | undefined): void {
    const prev = this.byFile.get(file);
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
    if (next) this.byFile.set(file, next);
    else this.byFile.delete(file);
  }

  /** Files whose analysis read `file`, directly or through other files. */
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
}
