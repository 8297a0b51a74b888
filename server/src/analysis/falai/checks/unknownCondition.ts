// unknown-condition: a JSON predicate (`{ naEtapa: "proposta" }`) names a condition the agent does not
// register under `conditions` (`equals`, `known` and `silenced` are built in).
import { checkAgentRefs, namesOf } from "./agentRefs";
import type { FalaiCheck } from "./finding";
import { predsOfFlow } from "./walk";

export const unknownCondition: FalaiCheck = (model) =>
  checkAgentRefs(model, {
    code: "unknown-condition",
    what: "condition",
    registered: (agent) => namesOf(agent.conditions),
    usedBy: (flow) => predsOfFlow(flow).flatMap((p) => p.conditions.map((ref) => ({ ref, where: `A condition of flow '${flow.id?.text ?? "?"}'` }))),
  });
