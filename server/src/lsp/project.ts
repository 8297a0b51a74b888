// The analysis side of the server: one AnalysisWorkspace per workspace folder (so per-folder severity
// settings apply to that folder only), plus a fallback workspace for files outside every folder (loose
// files, untitled documents). The only place that changes a folder: its texts, its settings, the agent
// files it knows, its generation (see cache.ts for what the generation invalidates).
import { sep } from "node:path";
import { DEFAULT_SETTINGS, type Settings } from "@agent-lens/settings";
import { createWorkspace } from "../analysis/index";
import type { AnalysisWorkspace, FileAnalysis } from "../analysis/api";
import { AnalysisCache } from "./cache";
import { readSourceFileSync } from "./files";

export interface Folder {
  /** Absolute path of the folder; "" for the fallback workspace. */
  readonly root: string;
  /** The folder's URI as the client sent it (scope for workspace/configuration). */
  readonly uri?: string;
  readonly name: string;
  readonly workspace: AnalysisWorkspace;
  readonly settings: Settings;
  /** Bumped on every change in this folder (cache.ts). */
  readonly generation: number;
  /** Bumped when the workspace is rebuilt (tsconfig change, folder removed): running indexing stops. */
  readonly epoch: number;
}

/** A folder as Project holds it: the same object, writable here only. */
interface FolderState extends Folder {
  root: string;
  workspace: AnalysisWorkspace;
  settings: Settings;
  generation: number;
  epoch: number;
  /** Agent files known to this folder → how many definitions (machines, flows, agents) each holds. */
  agentFiles: Map<string, number>;
  /** Bumped whenever a file joins or leaves `agentFiles` (indexing finds them without changing any text). */
  membership: number;
}


/** Machines, flows and agents defined in the file (counted by the analysis, without building symbols). */
function countDefinitions(analysis: FileAnalysis): number {
  return analysis.definitions;
}

export class Project {
  private folders: FolderState[] = [];
  private readonly fallbackFolder: FolderState;
  readonly cache = new AnalysisCache();

  constructor(private readonly log: (message: string) => void) {
    this.fallbackFolder = this.makeFolder("", undefined, "(no folder)");
  }

  get fallback(): Folder {
    return this.fallbackFolder;
  }

  private makeFolder(root: string, uri: string | undefined, name: string): FolderState {
    return { root, uri, name, workspace: this.newWorkspace(root, DEFAULT_SETTINGS), settings: DEFAULT_SETTINGS, generation: 0, epoch: 0, agentFiles: new Map(), membership: 0 };
  }

  private newWorkspace(root: string, settings: Settings): AnalysisWorkspace {
    return createWorkspace({
      roots: root ? [root] : [],
      // Imports are followed through the file system: never read huge or non-source files.
      readFile: (file) => {
        const r = readSourceFileSync(file);
        return "text" in r ? r.text : undefined;
      },
      severity: settings.severity,
      testGlobs: settings.testGlobs,
    });
  }

  private state(folder: Folder): FolderState {
    return folder as FolderState;
  }

  all(): Folder[] {
    return [...this.folders, this.fallbackFolder];
  }

  roots(): Folder[] {
    return [...this.folders];
  }

  addFolder(root: string, uri: string, name: string): Folder {
    const existing = this.folders.find((f) => f.root === root);
    if (existing) return existing;
    const folder = this.makeFolder(root, uri, name);
    this.folders.push(folder);
    // Longest roots first so nested folders win.
    this.folders.sort((a, b) => b.root.length - a.root.length);
    return folder;
  }

  removeFolder(root: string): Folder | undefined {
    const folder = this.folders.find((f) => f.root === root);
    if (!folder) return undefined;
    folder.epoch++;
    this.folders = this.folders.filter((f) => f !== folder);
    return folder;
  }

  /** Start over for a folder (tsconfig.json changed): a fresh workspace; the caller re-indexes. */
  rebuild(folder: Folder): void {
    const f = this.state(folder);
    f.epoch++;
    f.generation++;
    f.workspace = this.newWorkspace(f.root, f.settings);
    f.agentFiles.clear();
  }

  folderFor(file: string): Folder {
    for (const f of this.folders) if (file === f.root || file.startsWith(f.root.endsWith(sep) ? f.root : f.root + sep)) return f;
    return this.fallbackFolder;
  }

  /** Apply a folder's settings. Returns true when the folder's workspace was rebuilt (test globs
   *  changed): the caller re-sets open documents and re-indexes. A disabled folder forgets its agent files. */
  applySettings(folder: Folder, settings: Settings): boolean {
    const f = this.state(folder);
    const severityChanged = JSON.stringify(settings.severity) !== JSON.stringify(f.settings.severity);
    const globsChanged = JSON.stringify(settings.testGlobs) !== JSON.stringify(f.settings.testGlobs);
    f.settings = settings;
    if (!settings.enable) {
      f.agentFiles.clear();
      f.membership++;
    }
    if (globsChanged) {
      this.rebuild(f);
      return true;
    }
    if (severityChanged) {
      f.workspace.setSeverity(settings.severity);
      f.generation++;
    }
    return false;
  }

  /** `editing`: an open document (its tree and analysis are kept between versions, for small edits). */
  setText(file: string, text: string, editing = false): void {
    const folder = this.state(this.folderFor(file));
    folder.workspace.setFile(file, text, { editing });
    folder.generation++;
  }

  /** A file's text changed on disk and it no longer mentions the libraries: it stays readable for the
   *  files importing it, but is no longer counted as an agent file. */
  setSupportText(file: string, text: string): void {
    this.setText(file, text);
    this.state(this.folderFor(file)).agentFiles.delete(file);
  }

  remove(file: string): void {
    const folder = this.state(this.folderFor(file));
    folder.workspace.removeFile(file);
    folder.agentFiles.delete(file);
    folder.generation++;
  }

  /** The file's analysis, from the cache when nothing in its folder changed since. Never throws. */
  analyze(file: string): FileAnalysis {
    const folder = this.state(this.folderFor(file));
    return this.cache.get(folder, `analysis:${file}`, () => {
      let analysis: FileAnalysis;
      try {
        analysis = folder.workspace.analyze(file);
      } catch (error) {
        this.log(`[agent-lens] analysis of ${file} failed: ${error instanceof Error ? error.message : String(error)}`);
        analysis = { file, isAgentFile: false, symbols: [], references: [], findings: [], lenses: [], tests: [], graphs: [], dependencies: [], definitions: 0 };
      }
      const known = folder.agentFiles.has(file);
      if (analysis.isAgentFile) folder.agentFiles.set(file, countDefinitions(analysis));
      else folder.agentFiles.delete(file);
      if (known !== analysis.isAgentFile) folder.membership++;
      return analysis;
    });
  }

  /** The agent files a folder knows (indexed or opened), sorted. */
  agentFiles(folder: Folder): string[] {
    return [...this.state(folder).agentFiles.keys()].sort();
  }

  /** Changes whenever the folder's set of agent files does: part of the key of answers that list them. */
  agentFilesVersion(folder: Folder): number {
    return this.state(folder).membership;
  }

  isAgentFile(file: string): boolean {
    return this.state(this.folderFor(file)).agentFiles.has(file);
  }

  dependentsOf(file: string): string[] {
    try {
      return this.folderFor(file).workspace.dependentsOf(file);
    } catch {
      return [];
    }
  }

  totals(): { definitions: number; files: number } {
    let definitions = 0;
    let files = 0;
    for (const f of [...this.folders, this.fallbackFolder]) {
      files += f.agentFiles.size;
      for (const n of f.agentFiles.values()) definitions += n;
    }
    return { definitions, files };
  }
}
