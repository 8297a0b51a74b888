// The analysis side of the server: one AnalysisWorkspace per workspace folder (so per-folder severity
// settings apply to that folder only), plus a fallback workspace for files outside every folder
// (loose files, untitled documents). Analyses are cached per file until any text of that folder changes.
import { sep } from "node:path";
import { createWorkspace } from "../analysis/index";
import type { AnalysisWorkspace, FileAnalysis } from "../analysis/api";
import { analysisOverrides, DEFAULT_SETTINGS, hintCodes, type Settings } from "./settings";
import { readSourceFileSync } from "./files";

export interface Folder {
  /** Absolute path of the folder; "" for the fallback workspace. */
  root: string;
  /** The folder's URI as the client sent it (scope for workspace/configuration). */
  uri?: string;
  name: string;
  workspace: AnalysisWorkspace;
  settings: Settings;
  hints: Set<string>;
  /** Bumped on every text change in this folder: cached analyses older than it are stale. */
  generation: number;
  /** Bumped when the workspace is rebuilt (tsconfig change, folder removed): running indexing stops. */
  epoch: number;
  /** Agent files known to this folder → how many definitions (machines, flows, agents) each holds. */
  definitions: Map<string, number>;
  analyses: Map<string, { generation: number; analysis: FileAnalysis }>;
  indexing: boolean;
}

const DEFINITION_KINDS = new Set(["machine", "flow", "agent"]);

export function countDefinitions(analysis: FileAnalysis): number {
  let n = 0;
  for (const s of analysis.symbols) if (s.file === analysis.file && DEFINITION_KINDS.has(s.kind)) n++;
  return n;
}

export class Project {
  private folders: Folder[] = [];
  readonly fallback: Folder;

  constructor(private readonly log: (message: string) => void) {
    this.fallback = this.makeFolder("", undefined, "(no folder)");
  }

  private makeFolder(root: string, uri: string | undefined, name: string): Folder {
    return {
      root,
      uri,
      name,
      workspace: this.newWorkspace(root ? [root] : [], DEFAULT_SETTINGS),
      settings: DEFAULT_SETTINGS,
      hints: new Set(),
      generation: 0,
      epoch: 0,
      definitions: new Map(),
      analyses: new Map(),
      indexing: false,
    };
  }

  private newWorkspace(roots: string[], settings: Settings): AnalysisWorkspace {
    return createWorkspace({
      roots,
      // Imports are followed through the file system: never read huge or non-source files.
      readFile: (file) => {
        const r = readSourceFileSync(file);
        return "text" in r ? r.text : undefined;
      },
      severity: analysisOverrides(settings),
      testGlobs: settings.testGlobs,
    });
  }

  all(): Folder[] {
    return [...this.folders, this.fallback];
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
    folder.epoch++;
    folder.generation++;
    folder.workspace = this.newWorkspace(folder.root ? [folder.root] : [], folder.settings);
    folder.definitions.clear();
    folder.analyses.clear();
  }

  folderFor(file: string): Folder {
    for (const f of this.folders) if (file === f.root || file.startsWith(f.root.endsWith(sep) ? f.root : f.root + sep)) return f;
    return this.fallback;
  }

  /** Apply a folder's settings. Returns true when the folder's workspace was rebuilt (test globs
   *  changed): the caller re-sets open documents and re-indexes. */
  applySettings(folder: Folder, settings: Settings): boolean {
    const severityChanged = JSON.stringify(settings.severity) !== JSON.stringify(folder.settings.severity);
    const globsChanged = JSON.stringify(settings.testGlobs) !== JSON.stringify(folder.settings.testGlobs);
    folder.settings = settings;
    folder.hints = hintCodes(settings);
    if (globsChanged) {
      this.rebuild(folder);
      return true;
    }
    if (severityChanged) {
      folder.workspace.setSeverity(analysisOverrides(settings));
      folder.generation++;
    }
    return false;
  }

  setText(file: string, text: string): void {
    const folder = this.folderFor(file);
    folder.workspace.setFile(file, text);
    folder.generation++;
  }

  remove(file: string): void {
    const folder = this.folderFor(file);
    folder.workspace.removeFile(file);
    folder.definitions.delete(file);
    folder.analyses.delete(file);
    folder.generation++;
  }

  /** The file's analysis, from cache when nothing in its folder changed since. Never throws. */
  analyze(file: string): FileAnalysis {
    const folder = this.folderFor(file);
    const cached = folder.analyses.get(file);
    if (cached && cached.generation === folder.generation) return cached.analysis;
    let analysis: FileAnalysis;
    try {
      analysis = folder.workspace.analyze(file);
    } catch (error) {
      this.log(`[agent-lens] analysis of ${file} failed: ${error instanceof Error ? error.message : String(error)}`);
      analysis = { file, isAgentFile: false, symbols: [], references: [], findings: [], lenses: [], tests: [], graphs: [], dependencies: [] };
    }
    folder.analyses.set(file, { generation: folder.generation, analysis });
    if (analysis.isAgentFile) folder.definitions.set(file, countDefinitions(analysis));
    else folder.definitions.delete(file);
    return analysis;
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
    for (const f of this.all()) {
      files += f.definitions.size;
      for (const n of f.definitions.values()) definitions += n;
    }
    return { definitions, files };
  }
}
