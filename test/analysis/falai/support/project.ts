// The falai analyzer over in-memory files, through the real analysis workspace (its parse, resolver
// and contexts): `analyze` is the whole file analysis, `model` the falai extraction of one file.
import { FileContext } from "../../../../server/src/analysis/context";
import { extractFalai } from "../../../../server/src/analysis/falai";
import type { FalaiFileModel } from "../../../../server/src/analysis/falai/model";
import type { FileAnalysis } from "../../../../server/src/analysis/api";
import type { TextEdit } from "../../../../server/src/analysis/types";
import { Workspace } from "../../../../server/src/analysis/workspace";

export interface MemoryWorkspace {
  workspace: Workspace;
  analyze(file: string): FileAnalysis;
  model(file: string): FalaiFileModel;
  text(file: string): string;
}

/** Files by absolute path ("/w/agent.ts"). */
export function memoryWorkspace(files: Record<string, string>): MemoryWorkspace {
  const workspace = new Workspace({ roots: ["/w"], readFile: (f) => files[f] });
  return {
    workspace,
    analyze: (file) => workspace.analyze(file),
    model: (file) => {
      const sf = workspace.tree(file);
      if (!sf) throw new Error(`no file ${file}`);
      const ctx = new FileContext(workspace, { dependencies: new Set(), contexts: new Map(), evalCalls: 0 }, file, sf);
      const m = extractFalai(ctx);
      if (!m) throw new Error("extraction failed");
      return m;
    },
    text: (file) => files[file]!,
  };
}

/** One file at /w/agent.ts. */
export function analyzeSource(text: string, file = "/w/agent.ts"): FileAnalysis & { text: string } {
  const ws = memoryWorkspace({ [file]: text });
  return { ...ws.analyze(file), text };
}

/** Applies edits (of one file) to its text. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

/** The text a range covers. */
export const slice = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);
