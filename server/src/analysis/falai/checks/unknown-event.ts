// unknown-event: an event trigger, a `wait: { event }` step, or `turn({ event })` names an event the agent
// does not register under `events`.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { checkAgentRefs, flowName, namesOf, stepName, type AgentRefRule } from "./agent-refs";
import { didYouMean, finding, nearestFix } from "./finding";

const EVENTS: AgentRefRule = {
  code: "unknown-event",
  what: "event",
  registered: (agent) => namesOf(agent.events),
  forEachUse: (flow, uses) => {
    for (const t of flow.triggers) if (t.event) uses.use(t.event, () => `${flowName(flow)} (trigger)`);
    for (const step of flow.steps) if (step.waitEvent) uses.use(step.waitEvent, () => stepName(step));
  },
};

export const unknownEvent: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-event",
  severity: "error",
  description: "A trigger, a wait or turn({ event }) names an event the agent does not register.",
  when: "an event trigger, `wait: { event }` or `turn({ event })` names an event the agent does not register",
  docs: "an event trigger, `wait: { event }` or `turn({ event })` names an event the agent's `events` do not register",
  quickFix: "nearest event",
  run: (model) => {
    const out: Finding[] = checkAgentRefs(model, EVENTS);
    for (const site of model.turnSites) {
      const names = site.agent && namesOf(site.agent.events);
      const ref = site.event;
      if (!names || !ref || names.includes(ref.text) || ref.unterminated) continue;
      const { fix, suggestion } = nearestFix(model.file, ref, names);
      out.push(finding("unknown-event", `turn({ event }) names event '${ref.text}', which the agent does not register.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
    }
    return out;
  },
};
