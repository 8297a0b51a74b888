// unknown-condition: a JSON predicate (`{ naEtapa: "proposta" }`) names a condition the agent does not
// register under `conditions` (`equals`, `known` and `silenced` are built in).
import type { CheckDescriptor } from "../../check";
import { checkAgentRefs, namesOf, type AgentRefRule, type RefUses } from "./agent-refs";
import { didYouMean, finding, nearestFix } from "./finding";
import type { Finding } from "../../types";
import type { FalaiFileModel, FlowModel, PredModel } from "../model";
import { forEachAgentPred, forEachPred } from "../walk";

const CONDITIONS: AgentRefRule = {
  code: "unknown-condition",
  what: "condition",
  registered: (agent) => namesOf(agent.conditions),
  forEachUse: (flow, uses) => forEachPred(flow, conditionUses, { flow, uses }),
};

/** The conditions one predicate names (a module function, not a closure made per flow: util/shapes.ts). */
function conditionUses(pred: PredModel, { flow, uses }: { flow: FlowModel; uses: RefUses }): void {
  for (const ref of pred.conditions) uses.use(ref, () => `A condition of flow '${flow.id?.text ?? "?"}'`);
}

export const unknownCondition: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-condition",
  severity: "error",
  description: "A JSON predicate names a condition the agent does not register.",
  when: "a JSON predicate (`if: { naEtapa: \"x\" }`) names a condition the agent does not register",
  docs: "a JSON predicate (`if`, `while`, a branch's `if`, an instruction's `if`) names a condition the agent's `conditions` do not register (`equals`, `known`, `silenced` are built in)",
  quickFix: "nearest condition",
  run: (model) => [...checkAgentRefs(model, CONDITIONS), ...agentInstructions(model)],
};

/** The agent's own (and its idle speaker's) instructions name conditions too. */
function agentInstructions(model: FalaiFileModel): Finding[] {
  const out: Finding[] = [];
  for (const agent of model.agents) {
    const names = namesOf(agent.conditions);
    if (!names) continue;
    forEachAgentPred(agent, (pred) => {
      for (const ref of pred.conditions) {
        if (names.includes(ref.text) || ref.unterminated) continue;
        const { fix, suggestion } = nearestFix(model.file, ref, names);
        out.push(finding("unknown-condition", `An instruction of this agent names condition '${ref.text}', which the agent does not register.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
      }
    });
  }
  return out;
}
