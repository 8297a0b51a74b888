// unknown-action: a `do` step names an action the agent does not register.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import { checkAgentRefs, namesOf, stepName, type AgentRefRule } from "./agent-refs";

const ACTIONS: AgentRefRule = {
  code: "unknown-action",
  what: "action",
  registered: (agent) => namesOf(agent.actions),
  forEachUse: (flow, uses) => {
    for (const step of flow.steps) if (step.do) uses.use(step.do, () => stepName(step));
  },
};

export const unknownAction: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-action",
  severity: "error",
  description: "A step names an action the agent does not register.",
  when: "a `do` step names an action the agent does not register",
  docs: "a `do` step names an action its `actions` do not register",
  quickFix: "nearest name",
  run: (model) => checkAgentRefs(model, ACTIONS),
};
