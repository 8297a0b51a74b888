// The server's one cache. Everything the server memoises — each file's analysis, each folder's catalog —
// lives here, keyed by folder and a string key.
//
// Invalidation rule: an entry is valid while its folder's generation is the one it was computed at.
// Project bumps a folder's generation on every change that can alter any answer about that folder: a
// text set (an edit, a file read from disk), a file removed, severity or test-glob settings changed, the
// workspace rebuilt (tsconfig.json changed). A change in one folder leaves the other folders' entries alone.
// (Below this, the analysis library reuses a file's raw analysis while the versions of every file it read
// are unchanged; that is the library's own incremental step, not something the server manages.)

/** What the cache keys on: a Project folder (project.ts), by identity, with its generation. */
interface Generational {
  readonly generation: number;
}

export class AnalysisCache {
  private readonly byFolder = new WeakMap<Generational, { generation: number; values: Map<string, unknown> }>();

  /** The value for `key` in `folder`, computed (and kept) when absent or computed at an older generation. */
  get<T>(folder: Generational, key: string, compute: () => T): T {
    let entry = this.byFolder.get(folder);
    if (!entry || entry.generation !== folder.generation) {
      entry = { generation: folder.generation, values: new Map() };
      this.byFolder.set(folder, entry);
    }
    if (entry.values.has(key)) return entry.values.get(key) as T;
    const value = compute();
    entry.values.set(key, value);
    return value;
  }
}
