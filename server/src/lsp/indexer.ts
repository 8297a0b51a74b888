// Background indexing of a folder: list its sources, read those that mention the libraries (cheap text
// pre-filter, size checked before reading), hand them to the analysis, then analyze them in small time
// slices that yield to the event loop (setImmediate), so editor requests stay responsive meanwhile.
import { mentionsAgentLibrary } from "../analysis/prefilter";
import { listSourceFiles, readSourceFile } from "./files";
import type { Folder, Project } from "./project";

export interface IndexProgress {
  begin(title: string, message: string): void;
  report(percentage: number, message: string): void;
  done(): void;
}

const SLICE_MS = 12;
const READ_BATCH = 64;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface IndexHooks {
  /** True when an open document owns the file (its text comes from the editor, not the disk). */
  isOpen(file: string): boolean;
  log(message: string): void;
  /** A file left out because it is larger than MAX_FILE_BYTES: logged and noticed by the caller. */
  skipped(file: string, bytes: number): void;
  progress: IndexProgress;
}

/** Index one folder. Returns false when it was cancelled (the folder was rebuilt or removed meanwhile). */
export async function indexFolder(project: Project, folder: Folder, hooks: IndexHooks): Promise<boolean> {
  const epoch = folder.epoch;
  const cancelled = () => folder.epoch !== epoch;
  try {
    hooks.progress.begin(`Agent Lens: indexing ${folder.name}`, "listing files");
    const files = await listSourceFiles(folder.root, cancelled);
    if (cancelled()) return false;

    const agentFiles: string[] = [];
    for (let i = 0; i < files.length; i += READ_BATCH) {
      const batch = files.slice(i, i + READ_BATCH);
      const results = await Promise.all(batch.map(async (file) => ({ file, result: hooks.isOpen(file) ? undefined : await readSourceFile(file) })));
      if (cancelled()) return false;
      for (const { file, result } of results) {
        if (!result) {
          agentFiles.push(file); // open: already in the workspace with the editor's text
          continue;
        }
        if ("skipped" in result) {
          if (result.skipped === "too-large") hooks.skipped(file, result.size!);
          continue;
        }
        if (!mentionsAgentLibrary(result.text)) continue;
        project.setText(file, result.text);
        agentFiles.push(file);
      }
      hooks.progress.report(Math.round((Math.min(i + READ_BATCH, files.length) / Math.max(files.length, 1)) * 30), `read ${Math.min(i + READ_BATCH, files.length)}/${files.length} files`);
    }

    let sliceStart = performance.now();
    let lastReport = 0;
    for (let i = 0; i < agentFiles.length; i++) {
      if (cancelled()) return false;
      project.analyze(agentFiles[i]);
      if (performance.now() - sliceStart > SLICE_MS) {
        const pct = 30 + Math.round(((i + 1) / agentFiles.length) * 70);
        if (pct !== lastReport) {
          hooks.progress.report(pct, `analyzed ${i + 1}/${agentFiles.length} agent files`);
          lastReport = pct;
        }
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    return !cancelled();
  } finally {
    hooks.progress.done();
  }
}
