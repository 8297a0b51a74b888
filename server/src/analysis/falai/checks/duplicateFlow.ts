// duplicate-flow: two flows share an id — two module-level flows of one file, or two flows of one agent
// (flows may come from other files). Flows built inside functions (a test's own variants) are only
// compared within an agent.
import type { Finding } from "../../types";
import type { FlowModel } from "../model";
import { finding, type FalaiCheck } from "./finding";

export const duplicateFlow: FalaiCheck = (model) => {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const flow of model.flows) {
    if (!flow.id || !flow.topLevel) continue;
    if (seen.has(flow.id.text)) out.push(finding("duplicate-flow", `Another flow in this file already has the id '${flow.id.text}'.`, model.file, flow.id.full));
    seen.add(flow.id.text);
  }
  for (const agent of model.agents) {
    const byId = new Map<string, FlowModel>();
    for (const entry of agent.flows) {
      const id = entry.flow.id?.text;
      if (id === undefined) continue;
      const first = byId.get(id);
      if (first === undefined) {
        byId.set(id, entry.flow);
        continue;
      }
      // two module-level flows of this file with one id are already reported at the second one's id
      if (first !== entry.flow && [first, entry.flow].every((f) => f.file === model.file && f.topLevel)) continue;
      const what = first === entry.flow ? `Flow '${id}' is included twice in this agent.` : `This agent already has a flow with the id '${id}'.`;
      out.push(finding("duplicate-flow", what, model.file, entry.refRange));
    }
  }
  return out;
};
