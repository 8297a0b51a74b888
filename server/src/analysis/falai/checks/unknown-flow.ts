// unknown-flow: `then: { flow: "x" }` (anywhere a step jumps) or `turn({ start: { flow: "x" } })` names a
// flow the agent does not have. A template (`"{{input.flowId}}"`) is not judged.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { checkAgentRefs, type AgentRefRule } from "./agent-refs";
import { didYouMean, finding, nearestFix } from "./finding";
import { forEachNext } from "../walk";
import type { AgentModel } from "../model";

/** The ids of an agent's flows, when all are known (a loop, not closures made per call: util/shapes.ts). */
function flowIds(agent: AgentModel): string[] | undefined {
  if (!agent.flowsStatic) return undefined;
  const ids: string[] = [];
  for (const e of agent.flows) {
    if (!e.flow.id) return undefined;
    ids.push(e.flow.id.text);
  }
  return ids;
}

const FLOWS: AgentRefRule = {
  code: "unknown-flow",
  what: "flow",
  registered: flowIds,
  forEachUse: (flow, uses) => {
    for (const step of flow.steps) {
      forEachNext(step, (next) => {
        if (next.kind === "flow" && next.flow) uses.use(next.flow, () => `then: { flow } of step '${step.id?.text ?? step.index + 1}'`);
      });
    }
  },
};

export const unknownFlow: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-flow",
  severity: "error",
  description: "then: { flow } or turn({ start: { flow } }) names a flow the agent does not have.",
  when: "`then: { flow }` or `turn({ start: { flow } })` names a flow the agent does not have",
  docs: "`then: { flow }` (not a template) or `turn({ start: { flow } })` names a flow the agent does not have",
  quickFix: "nearest flow",
  run: (model) => {
    const out: Finding[] = checkAgentRefs(model, FLOWS);
    for (const site of model.turnSites) {
      const names = site.agent && flowIds(site.agent);
      const ref = site.startFlow;
      if (!names || !ref || names.includes(ref.text) || ref.unterminated) continue;
      const { fix, suggestion } = nearestFix(model.file, ref, names);
      out.push(finding("unknown-flow", `turn({ start }) names flow '${ref.text}', which the agent does not have.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
    }
    return out;
  },
};
