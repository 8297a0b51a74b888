// unknown-tool / unknown-action: a step names a tool (`tools`) or action (`do`) its agent does not
// register. Only for agents whose registrations are statically known; a flow from another file is
// reported where this file's agent includes it.
import type { Finding } from "../../types";
import type { AgentModel, Str } from "../model";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

function checkAgent(agent: AgentModel, file: string, kind: "tool" | "action"): Finding[] {
  const isStatic = kind === "tool" ? agent.toolsStatic : agent.actionsStatic;
  if (!isStatic) return [];
  const names = (kind === "tool" ? agent.tools : agent.actions).map((r) => r.name);
  const known = new Set(names);
  const code = kind === "tool" ? "unknown-tool" : "unknown-action";
  const who = agent.name ? `agent '${agent.name}'` : "this agent";
  const out: Finding[] = [];
  for (const entry of agent.flows) {
    for (const step of entry.flow.steps) {
      const refs: Str[] = kind === "tool" ? step.tools : step.do;
      for (const ref of refs) {
        if (known.has(ref.text) || ref.unterminated) continue;
        const stepName = step.id ? `'${step.id.text}'` : `#${step.index + 1}`;
        if (entry.flow.file === file) {
          const { fix, suggestion } = nearestFix(file, ref, names);
          out.push(finding(code, `Step ${stepName} uses ${kind} '${ref.text}', which ${who} does not register.${didYouMean(suggestion)}`, file, ref.full, fix ? [fix] : undefined));
        } else {
          const flowName = entry.flow.id ? `'${entry.flow.id.text}'` : "included";
          out.push(finding(code, `Flow ${flowName}: step ${stepName} uses ${kind} '${ref.text}', which ${who} does not register.`, file, entry.refRange));
        }
      }
    }
  }
  return out;
}

export const unknownTool: FalaiCheck = (model) => model.agents.flatMap((a) => checkAgent(a, model.file, "tool"));
export const unknownAction: FalaiCheck = (model) => model.agents.flatMap((a) => checkAgent(a, model.file, "action"));
