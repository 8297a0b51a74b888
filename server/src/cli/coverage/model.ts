// What coverage is computed against: the analysis' machines and flows in scope of the eval files that ran,
// reduced to plain JSON (no compiler objects), so it crosses a worker boundary, rides in a blob report and
// can be built by any client of the analysis (the CLI: static-model.ts on its own workspace; the editor: the
// language server's agentLens/coverageModel, on the server's analyses). The types are the protocol's.
import type { CoverageModel } from "@agent-lens/protocol";

export type { CoverageModel, CoverageTestBlock } from "@agent-lens/protocol";

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
