// The checks of names an agent must register (tools, actions, events, conditions, flows): for each agent
// of this file whose registry of that kind is statically known, every name its flows use must be in it.
// A name in a flow of this file is reported where it is written (with the nearest name as a fix); a
// flow from another file is reported at the place this agent's `flows` names it.
import type { Finding, FindingCode } from "../../types";
import type { AgentModel, FalaiFileModel, FlowModel, StepModel, Str } from "../model";
import { didYouMean, finding, nearestFix } from "./finding";

export interface AgentRefRule {
  code: FindingCode;
  /** "tool", "action", ... for messages. */
  what: string;
  /** The names the agent registers, or undefined when they cannot all be known. */
  registered(agent: AgentModel): string[] | undefined;
  /** Calls `use` for each name a flow uses, with where it is (a message phrase, built only when needed). */
  forEachUse(flow: FlowModel, use: (ref: Str, where: () => string) => void): void;
}

export function checkAgentRefs(model: FalaiFileModel, rule: AgentRefRule): Finding[] {
  const out: Finding[] = [];
  for (const agent of model.agents) {
    const names = rule.registered(agent);
    if (!names) continue;
    const known = new Set(names);
    const who = agent.name ? `agent '${agent.name}'` : "this agent";
    for (const entry of agent.flows) {
      rule.forEachUse(entry.flow, (ref, where) => {
        if (known.has(ref.text) || ref.unterminated) return;
        if (entry.flow.file === model.file) {
          const { fix, suggestion } = nearestFix(model.file, ref, names);
          out.push(finding(rule.code, `${where()} names ${rule.what} '${ref.text}', which ${who} does not have.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
        } else {
          const flowName = entry.flow.id ? `'${entry.flow.id.text}'` : "included";
          out.push(finding(rule.code, `Flow ${flowName}: ${where()} names ${rule.what} '${ref.text}', which ${who} does not have.`, model.file, entry.refRange));
        }
      });
    }
  }
  return out;
}

/** A step as named in messages. */
export function stepName(step: StepModel): string {
  return step.id ? `Step '${step.id.text}'` : `Step #${step.index + 1}`;
}

/** A flow as named in messages. */
export function flowName(flow: FlowModel): string {
  return `Flow '${flow.id?.text ?? "?"}'`;
}

/** The names a registry holds, when all are known. */
export function namesOf(registry: { entries: Array<{ name: string }>; complete: boolean }): string[] | undefined {
  return registry.complete ? registry.entries.map((e) => e.name) : undefined;
}
