// decide-without-events: a state invokes a decision without `onDone`, and neither it nor an ancestor
// handles any event, so no decision can be delivered.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { InvokeDef, MachineDef } from "../model";
import { finding, selfAndAncestors } from "./finding";

function isDecision(invoke: InvokeDef): boolean {
  const src = invoke.src;
  if (src.kind === "request") return src.logic === "decision";
  if (src.kind === "string") return src.text === "agent.decide" || invoke.state.machine.agent?.requests.get(src.text)?.kind === "decision";
  return false;
}

export const decideWithoutEvents: CheckDescriptor<MachineDef> = {
  code: "decide-without-events",
  severity: "error",
  description: "A state asks for a decision but neither it nor an ancestor handles any event.",
  when: "a state invokes `agent.decide` (with no `onDone`) but neither it nor an ancestor handles any event",
  docs: "a state invokes a decision without `onDone`, and neither it nor an ancestor handles any event",
  run(machine) {
    const out: Finding[] = [];
    for (const invoke of machine.invokes) {
      // an invoke with onDone handles the decision's completion itself (the library's lint agrees)
      if (!isDecision(invoke) || invoke.hasOnDone) continue;
      const chain = selfAndAncestors(invoke.state);
      if (chain.some((s) => !s.configComplete || s.handledEvents.some((e) => !e.startsWith("xstate.")))) continue;
      const where = invoke.src.kind === "request" || invoke.src.kind === "string" ? { at: invoke.src.at, node: invoke.src.node } : invoke;
      out.push(finding("decide-without-events", `State "${invoke.state.path.join(".") || machine.name}" asks for a decision but neither it nor an ancestor handles any event, so no decision can be delivered. Add the events it may choose under "on".`, where));
    }
    return out;
  },
};
