// What coverage is computed against: the analysis' machines and flows in scope of the eval files that ran,
// reduced to plain JSON (no compiler objects), so it crosses a worker boundary, rides in a blob report and
// can be built by any client of the analysis (the CLI: static-model.ts; the editor: from its server).
import type { AgentGraph } from "@agent-lens/protocol";

/** A call of an eval file the analysis tied to what it runs (a runSeam lens: its machine; a turn: its flows). */
export interface CoverageSite {
  /** 1-based, as harness call sites. */
  line: number;
  machineId?: string;
  flows?: string[];
}

/** A test block of an eval file, for tying a result without a test name to the test it came from. */
export interface CoverageTestBlock {
  /** "suite > test", as the harness names node:test tests. */
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface CoverageEvalFile {
  /** Graph ids (machines and flows) defined in the eval file or a file it imports, directly or not. */
  scope: string[];
  sites: CoverageSite[];
  tests: CoverageTestBlock[];
}

export interface CoverageModel {
  /** Every machine and flow in scope of some eval file, once. */
  graphs: AgentGraph[];
  /** Node ids the analysis proved unreachable (`unreachable-state`, `unreachable-step`): not counted. */
  unreachable: string[];
  /** Request names each machine may invoke (by graph id). */
  requests: Record<string, string[]>;
  /** Fields each flow's steps collect (by graph id). */
  fields: Record<string, string[]>;
  /** By absolute path of the eval file. */
  evalFiles: Record<string, CoverageEvalFile>;
}

/** One model out of several (shards, or a model per folder): graphs by id, eval files by path. */
export function mergeModels(models: CoverageModel[]): CoverageModel {
  const out: CoverageModel = { graphs: [], unreachable: [], requests: {}, fields: {}, evalFiles: {} };
  const seen = new Set<string>();
  const unreachable = new Set<string>();
  for (const m of models) {
    for (const g of m.graphs) {
      if (seen.has(g.id)) continue;
      seen.add(g.id);
      out.graphs.push(g);
    }
    for (const id of m.unreachable) unreachable.add(id);
    Object.assign(out.requests, m.requests);
    Object.assign(out.fields, m.fields);
    Object.assign(out.evalFiles, m.evalFiles);
  }
  out.unreachable = [...unreachable].sort();
  out.graphs.sort((a, b) => a.id.localeCompare(b.id));
  return out;
}
