// duplicate-flow: two flows share an id — in one file, or in one agent (flows may come from other files).
import type { Finding } from "../../types";
import { finding, type FalaiCheck } from "./finding";

export const duplicateFlow: FalaiCheck = (model) => {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const flow of model.flows) {
    if (!flow.id) continue;
    if (seen.has(flow.id.text)) out.push(finding("duplicate-flow", `Another flow in this file already has the id '${flow.id.text}'.`, model.file, flow.id.full));
    seen.add(flow.id.text);
  }
  for (const agent of model.agents) {
    const byId = new Map<string, unknown>();
    for (const entry of agent.flows) {
      const id = entry.flow.id?.text;
      if (id === undefined) continue;
      const first = byId.get(id);
      if (first === undefined) {
        byId.set(id, entry.flow);
        continue;
      }
      const local = entry.flow.file === model.file && first !== entry.flow;
      // two local flows with one id are already reported at the second one's id above
      if (local && (first as { file: string }).file === model.file) continue;
      const what = first === entry.flow ? `Flow '${id}' is included twice in this agent.` : `This agent already has a flow with the id '${id}'.`;
      out.push(finding("duplicate-flow", what, model.file, entry.refRange));
    }
  }
  return out;
};
