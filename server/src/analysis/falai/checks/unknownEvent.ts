// unknown-event: an event trigger, a `wait: { event }` step, or `turn({ event })` names an event the agent
// does not register under `events`.
import type { Finding } from "../../types";
import { checkAgentRefs, flowName, namesOf, stepName } from "./agentRefs";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

export const unknownEvent: FalaiCheck = (model) => {
  const out: Finding[] = checkAgentRefs(model, {
    code: "unknown-event",
    what: "event",
    registered: (agent) => namesOf(agent.events),
    forEachUse: (flow, use) => {
      for (const t of flow.triggers) if (t.event) use(t.event, () => `${flowName(flow)} (trigger)`);
      for (const step of flow.steps) if (step.waitEvent) use(step.waitEvent, () => stepName(step));
    },
  });
  for (const site of model.turnSites) {
    const names = site.agent && namesOf(site.agent.events);
    const ref = site.event;
    if (!names || !ref || names.includes(ref.text) || ref.unterminated) continue;
    const { fix, suggestion } = nearestFix(model.file, ref, names);
    out.push(finding("unknown-event", `turn({ event }) names event '${ref.text}', which the agent does not register.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
  }
  return out;
};
