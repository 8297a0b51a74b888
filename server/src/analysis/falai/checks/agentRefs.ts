// The checks of names an agent must register (tools, actions, events, conditions, flows): for each agent
// of this file whose registry of that kind is statically known, every name its flows use must be in it.
// A name in a flow of this file is reported where it is written (with the nearest name as a fix); a
// flow from another file is reported at the place this agent's `flows` names it.
import type { Finding, FindingCode } from "../../types";
import type { AgentModel, FalaiFileModel, FlowModel, Str } from "../model";
import { didYouMean, finding, nearestFix } from "./finding";

export interface AgentRefRule {
  code: FindingCode;
  /** "tool", "action", ... for messages. */
  what: string;
  /** The names the agent registers, or undefined when they cannot all be known. */
  registered(agent: AgentModel): string[] | undefined;
  /** The names a flow uses, with where (for the message). */
  usedBy(flow: FlowModel): Array<{ ref: Str; where: string }>;
}

export function checkAgentRefs(model: FalaiFileModel, rule: AgentRefRule): Finding[] {
  const out: Finding[] = [];
  for (const agent of model.agents) {
    const names = rule.registered(agent);
    if (!names) continue;
    const known = new Set(names);
    const who = agent.name ? `agent '${agent.name}'` : "this agent";
    for (const entry of agent.flows) {
      for (const { ref, where } of rule.usedBy(entry.flow)) {
        if (known.has(ref.text) || ref.unterminated) continue;
        if (entry.flow.file === model.file) {
          const { fix, suggestion } = nearestFix(model.file, ref, names);
          out.push(finding(rule.code, `${where} names ${rule.what} '${ref.text}', which ${who} does not have.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
        } else {
          const flowName = entry.flow.id ? `'${entry.flow.id.text}'` : "included";
          out.push(finding(rule.code, `Flow ${flowName}: ${where} names ${rule.what} '${ref.text}', which ${who} does not have.`, model.file, entry.refRange));
        }
      }
    }
  }
  return out;
}

/** A step as named in messages. */
export function stepName(flow: FlowModel, index: number): string {
  const step = flow.steps[index]!;
  return step.id ? `Step '${step.id.text}'` : `Step #${index + 1}`;
}

/** The names a registry holds, when all are known. */
export function namesOf(registry: { entries: Array<{ name: string }>; complete: boolean }): string[] | undefined {
  return registry.complete ? registry.entries.map((e) => e.name) : undefined;
}
