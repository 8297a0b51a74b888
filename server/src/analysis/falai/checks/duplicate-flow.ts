// duplicate-flow: two flows share an id — two module-level flows of one file, or two flows of one agent
// (flows may come from other files). Flows built inside functions (a test's own variants) are only
// compared within an agent. The runtime rejects a duplicate id only within one agent, so two module-level
// flows that only ever run apart are fine: each is in an agent of this file whose flow list is fully read,
// and no agent of this file has both (an eval comparing variants A and B). A pair one agent has is
// reported once, at the second flow's id (the agent pass leaves module-level pairs of this file to it).
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { AgentModel, FalaiFileModel, FlowModel } from "../model";
import { finding } from "./finding";

function includes(agent: AgentModel, flow: FlowModel): boolean {
  for (const entry of agent.flows) if (entry.flow === flow) return true;
  return false;
}

/** `a` and `b` only ever run apart (see above). */
function runApart(model: FalaiFileModel, a: FlowModel, b: FlowModel): boolean {
  let aIn = false;
  let bIn = false;
  for (const agent of model.agents) {
    const hasA = includes(agent, a);
    const hasB = includes(agent, b);
    if (hasA && hasB) return false;
    if (agent.flowsStatic) {
      aIn ||= hasA;
      bIn ||= hasB;
    }
  }
  return aIn && bIn;
}

/** The module-level flow `model.flows[i]` shares its id with an earlier one it does not run apart from. */
function clashesWithEarlier(model: FalaiFileModel, i: number): boolean {
  const flow = model.flows[i]!;
  for (let j = 0; j < i; j++) {
    const other = model.flows[j]!;
    if (other.topLevel && other.id?.text === flow.id!.text && !runApart(model, other, flow)) return true;
  }
  return false;
}

export const duplicateFlow: CheckDescriptor<FalaiFileModel> = {
  code: "duplicate-flow",
  severity: "error",
  description: "Two flows share an id.",
  when: "two flows share an id",
  docs: "two module-level flows of a file share an id (unless each is in an agent of the file whose `flows` are read and no agent of the file has both), or two flows of an agent do",
  run: (model) => {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < model.flows.length; i++) {
      const flow = model.flows[i]!;
      if (!flow.id || !flow.topLevel) continue;
      // the first of an id needs no look back; a repeated one (rare) is compared with each earlier one
      if (seen.has(flow.id.text) && clashesWithEarlier(model, i)) out.push(finding("duplicate-flow", `Another flow in this file already has the id '${flow.id.text}'.`, model.file, flow.id.full));
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
  },
};
