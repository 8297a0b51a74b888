// unknown-tool: a step (or the flow, or the agent's idle speaker) names a tool the agent does not register.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { checkAgentRefs, flowName, namesOf, stepName, type AgentRefRule } from "./agent-refs";
import { didYouMean, finding, nearestFix } from "./finding";

const TOOLS: AgentRefRule = {
  code: "unknown-tool",
  what: "tool",
  registered: (agent) => namesOf(agent.tools),
  forEachUse: (flow, uses) => {
    for (const ref of flow.tools) uses.use(ref, () => flowName(flow));
    for (const step of flow.steps) for (const ref of step.tools) uses.use(ref, () => stepName(step));
  },
};

export const unknownTool: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-tool",
  severity: "error",
  description: "A step names a tool the agent does not register.",
  when: "a step names a tool the agent does not register",
  docs: "a step's or flow's `tools` (or `idle.tools`) names a tool the agent's `tools` do not hold",
  quickFix: "nearest name",
  run: (model) => {
    const out: Finding[] = checkAgentRefs(model, TOOLS);
    for (const agent of model.agents) {
      const names = namesOf(agent.tools);
      if (!names) continue;
      for (const ref of agent.idleTools) {
        if (names.includes(ref.text) || ref.unterminated) continue;
        const { fix, suggestion } = nearestFix(model.file, ref, names);
        out.push(finding("unknown-tool", `idle names tool '${ref.text}', which this agent does not have.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
      }
    }
    return out;
  },
};
