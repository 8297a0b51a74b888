// The workspace's files: open documents and files read from disk (text set wins over disk), each with a
// version number, each version parsed at most once. A file being edited keeps its syntax tree between
// versions (the workspace patches it in place for shape-keeping edits); other files keep theirs only while
// they are among the few most recently parsed (a tree holds ~30× its text, and the files importing one
// are usually analyzed next).
import * as fs from "node:fs";
import * as path from "node:path";
import type { ts } from "ts-morph";
import type { AstEdit, EditPlace } from "./incremental/edit";
import { parseWithParents } from "./parse";

/** Files larger than this are not analyzed (generated bundles, data); they yield an empty analysis. */
export const MAX_FILE_CHARS = 4_000_000;

export interface FileEntry {
  text: string;
  version: number;
  open: boolean;
  /** Kept parsed between versions, and patched in place by shape-keeping edits. */
  editing: boolean;
  tree?: ts.SourceFile;
  /** Why this version could not be parsed (nested too deep for the parser): thrown again, not re-parsed. */
  parseError?: unknown;
  /** Edits patched into `tree` since version `fromVersion` (the cached analysis' version, if any);
   *  `structural`: a member was spliced in among them (incremental/splice.ts), so nothing is carried over. */
  patches?: { fromVersion: number; edits: Array<{ edit: AstEdit; place: EditPlace }>; structural: boolean };
}

let versionCounter = 0;
/** How many syntax trees of files not being edited are kept. */
const RECENT_TREES = 8;

export class FileStore {
  private readonly files = new Map<string, FileEntry>();
  private readonly missing = new Set<string>();
  /** Files not being edited whose syntax trees are kept for now (oldest first). */
  private readonly recentTrees = new Set<string>();

  constructor(private readonly readFromDisk: (file: string) => string | undefined = readFileOrUndefined) {}

  /**
   * Sets a file's text. An unchanged text keeps its version (and tree). `carry` may move the previous
   * version's tree into the new entry (a patched edit). Returns true when module resolution may answer
   * differently now (a new file, or a tsconfig.json).
   */
  set(file: string, text: string, editing: boolean, carry: (prev: FileEntry, entry: FileEntry) => void): boolean {
    const prev = this.files.get(file);
    if (prev && prev.text === text) {
      prev.open = true;
      prev.editing = editing;
      return false;
    }
    const entry: FileEntry = { text, version: ++versionCounter, open: true, editing };
    if (prev) carry(prev, entry);
    this.files.set(file, entry);
    return this.missing.delete(file) || !prev || path.basename(file) === "tsconfig.json";
  }

  remove(file: string): void {
    this.files.delete(file);
    this.missing.delete(file);
    this.recentTrees.delete(file);
  }

  /** The file's entry, read from disk on first ask; undefined when it does not exist. */
  entry(file: string): FileEntry | undefined {
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

  /** The entry when the file is known, without reading the disk. */
  known(file: string): FileEntry | undefined {
    return this.files.get(file);
  }

  /** The file's current version (read from disk when not known yet), -1 when it does not exist. */
  versionOf(file: string): number {
    return this.files.get(file)?.version ?? this.entry(file)?.version ?? -1;
  }

  /** The syntax tree of a file (parsed on first ask, parents set); undefined when missing or too large.
   *  Throws what the parser threw (nested too deep), again on every ask until the text changes. */
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

  /** Keeps the syntax trees of the most recently analyzed files not being edited; drops the oldest. */
  keepTree(file: string, entry: FileEntry): void {
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
}

function readFileOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
