// unknown-event: an event trigger, a `wait: { event }` step, or `turn({ event })` names an event the agent
// does not register under `events`.
import type { Finding } from "../../types";
import { checkAgentRefs, namesOf, stepName } from "./agentRefs";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

export const unknownEvent: FalaiCheck = (model) => {
  const out: Finding[] = checkAgentRefs(model, {
    code: "unknown-event",
    what: "event",
    registered: (agent) => namesOf(agent.events),
    usedBy: (flow) => [
      ...flow.triggers.flatMap((t) => (t.event ? [{ ref: t.event, where: `Flow '${flow.id?.text ?? "?"}' (trigger)` }] : [])),
      ...flow.steps.flatMap((s) => (s.waitEvent ? [{ ref: s.waitEvent, where: stepName(flow, s.index) }] : [])),
    ],
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
