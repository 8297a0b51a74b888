// The event types a machine knows: those its agent declares (`events`, or a `schemas` pack's `events`)
// and every `on` key of its states. Undefined when some part cannot be read (then no event is judged).
import type { MachineDef } from "./model";

export function machineEvents(machine: MachineDef): Set<string> | undefined {
  const out = new Set<string>();
  if (machine.kind === "agent") {
    if (!machine.agent?.events) return undefined;
    for (const e of machine.agent.events) out.add(e);
  }
  for (const state of machine.states) {
    if (!state.configComplete) return undefined;
    for (const e of state.handledEvents) out.add(e);
  }
  return out;
}
