// Test helpers: an in-memory workspace over a map of files (no disk), small finders, a seeded PRNG.
import { createWorkspace } from "../../server/src/analysis";
import type { AnalysisWorkspace, FileAnalysis, SeverityOverrides } from "../../server/src/analysis/api";

export const ROOT = "/ws";

export function workspaceOf(files: Record<string, string>, severity?: SeverityOverrides): AnalysisWorkspace {
  const abs = Object.fromEntries(Object.entries(files).map(([k, v]) => [k.startsWith("/") ? k : `${ROOT}/${k}`, v]));
  const ws = createWorkspace({ roots: [ROOT], readFile: (f) => abs[f], severity });
  return ws;
}

export function analyzeIn(files: Record<string, string>, file: string, severity?: SeverityOverrides): FileAnalysis {
  return workspaceOf(files, severity).analyze(file.startsWith("/") ? file : `${ROOT}/${file}`);
}

/** Analyze one agent file written with the usual imports. */
export function analyzeAgent(body: string, severity?: SeverityOverrides): FileAnalysis {
  return analyzeIn({ "agent.ts": AGENT_IMPORTS + body }, "agent.ts", severity);
}

export const AGENT_IMPORTS = `import { z } from "zod";\nimport { setupAgent, createTextLogic, createDecisionLogic } from "@statelyai/agent";\nimport { createMachine, setup, fromPromise } from "xstate";\n`;

export function codes(a: FileAnalysis): string[] {
  return a.findings.map((f) => f.code);
}

/** The text a finding's range covers. */
export function findingText(a: FileAnalysis, text: string, code: string): string[] {
  return a.findings.filter((f) => f.code === code).map((f) => text.slice(f.range.start, f.range.end));
}

/** Deterministic PRNG (mulberry32), so a failing step names a seed that reproduces it. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
