// The names a machine's model calls can carry: request names (declared requests, inline named requests,
// invoke ids of unnamed inline requests) and model keys. Scripts route by either; the seam by a name.
import type { MachineDef } from "./model";

/** Request names a machine's calls can carry (declared names, inline names, invoke ids of unnamed
 *  inline requests), and its model keys. Undefined when not all of them can be known. */
export function requestNamesOf(machine: MachineDef): { requests: Set<string>; models: Set<string> } | undefined {
  const requests = new Set<string>();
  const models = new Set<string>();
  if (machine.kind === "agent") {
    if (!machine.agent || !machine.agent.requestsComplete) return undefined;
    for (const [name, r] of machine.agent.requests) {
      requests.add(name);
      if (r.model) models.add(r.model.text);
    }
    for (const m of machine.agent.models.keys()) models.add(m);
    // `actors` may hold request logic (createTextLogic), invoked and routed by its key
    if (!machine.agent.actorsComplete) return undefined;
    for (const a of machine.agent.actors.keys()) requests.add(a);
  } else if (machine.kind === "setup") {
    // so may `setup({ actors })`'s
    if (!machine.setupActors || !machine.setupActorsComplete) return undefined;
    for (const a of machine.setupActors.keys()) requests.add(a);
  }
  for (const state of machine.states) if (!state.configComplete || !state.childrenComplete) return undefined;
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind === "unknown") return undefined;
    // a string src of a machine with no setup this analysis read (an agent imported from a package, a
    // bare createMachine whose logic is provided later) names logic it cannot see
    if (src.kind === "string" && machine.kind === "plain") return undefined;
    if (src.kind === "request") {
      if (src.name) requests.add(src.name.text);
      else if (invoke.id) requests.add(invoke.id.text);
      if (src.model) models.add(src.model.text);
      else if (src.request?.model) models.add(src.request.model.text);
    }
  }
  return { requests, models };
}
