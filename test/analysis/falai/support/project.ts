// Builds ExtractContexts over an in-memory ts-morph project, so the falai analyzer can be tested on its
// own (the workspace's own contexts are exercised by the tests that go through analyzeText).
import { Project } from "ts-morph";
import { basicContext } from "../../../../server/src/analysis/falai/basicContext";
import { analyzeFalai, extractFalai } from "../../../../server/src/analysis/falai";
import type { ExtractContext, LibraryAnalysis } from "../../../../server/src/analysis/library";
import type { FalaiFileModel } from "../../../../server/src/analysis/falai/model";
import type { TextEdit } from "../../../../server/src/analysis/types";

export interface MemoryWorkspace {
  project: Project;
  ctx(file: string): ExtractContext;
  analyze(file: string): LibraryAnalysis;
  model(file: string): FalaiFileModel;
  text(file: string): string;
}

/** Files by absolute path ("/w/agent.ts"). */
export function memoryWorkspace(files: Record<string, string>): MemoryWorkspace {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, target: 99, module: 99, moduleResolution: 100 } });
  for (const [path, text] of Object.entries(files)) project.createSourceFile(path, text, { overwrite: true });
  const contexts = new Map<string, ExtractContext>();
  const ctx = (file: string): ExtractContext => {
    let c = contexts.get(file);
    if (!c) {
      const sf = project.getSourceFileOrThrow(file);
      c = basicContext(file, sf, (other) => (project.getSourceFile(other) ? ctx(other) : undefined));
      contexts.set(file, c);
    }
    return c;
  };
  return {
    project,
    ctx,
    analyze: (file) => analyzeFalai(ctx(file)),
    model: (file) => {
      const m = extractFalai(ctx(file));
      if (!m) throw new Error("extraction failed");
      return m;
    },
    text: (file) => project.getSourceFileOrThrow(file).getFullText(),
  };
}

/** One file at /w/agent.ts. */
export function analyzeSource(text: string, file = "/w/agent.ts"): LibraryAnalysis & { file: string; text: string } {
  const ws = memoryWorkspace({ [file]: text });
  return { ...ws.analyze(file), file, text };
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
