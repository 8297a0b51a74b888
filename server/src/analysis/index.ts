// The analysis library's entry points. Pure: no LSP or VS Code types. The language server, the CLI and
// the tests all use these.
import * as path from "node:path";
import type { AnalysisWorkspace, FileAnalysis, WorkspaceOptions } from "./api";
import { Workspace } from "./workspace";

export type * from "./api";
export type * from "./types";
export { setAnalysisErrorListener } from "./errors";

/** A workspace over the given roots: files are read from disk (or `readFile`) unless set. */
export function createWorkspace(options: WorkspaceOptions): AnalysisWorkspace {
  return new Workspace(options);
}

let scratch: Workspace | undefined;

/** Analyze one file's text on its own (imports are not followed). Never throws. */
export function analyzeText(file: string, text: string): FileAnalysis {
  const absolute = path.resolve(file);
  scratch ??= new Workspace({ roots: [path.dirname(absolute)], readFile: () => undefined });
  scratch.setFile(absolute, text);
  try {
    return scratch.analyze(absolute);
  } finally {
    scratch.removeFile(absolute);
  }
}
