// The names a machine's model calls can carry: request names (declared requests, inline named requests,
// invoke ids of unnamed inline requests) and model keys. Scripts route by either; the seam by a name.
import { defaultStateId } from "./machine";
import type { ActorDef, InvokeDef, MachineDef } from "./model";

type Names = { requests: Set<string>; models: Set<string> };

/** Request names a machine's calls can carry (declared names, inline names, invoke ids of unnamed
 *  inline requests), and its model keys. Undefined when not all of them can be known. */
export function requestNamesOf(machine: MachineDef): Names | undefined {
  const requests = new Set<string>();
  const models = new Set<string>();
  if (machine.kind === "agent") {
    if (!machine.agent || !machine.agent.requestsComplete) return undefined;
    for (const [name, r] of machine.agent.requests) {
      if (r.modelOpen) return undefined;
      requests.add(name);
      if (r.model) models.add(r.model.text);
    }
    for (const m of machine.agent.models.keys()) models.add(m);
    // `actors` may hold request logic (createTextLogic), invoked by its key (its calls carry the logic's
    // own name, see below; the key is accepted too)
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
    if (src.kind === "string") {
      // a string src of a machine with no setup this analysis read (an agent imported from a package, a
      // bare createMachine whose logic is provided later) names logic it cannot see
      if (machine.kind === "plain") return undefined;
      const actor = machine.agent?.actors.get(src.text) ?? machine.setupActors?.get(src.text);
      if (actor && !addActorNames(machine, actor, invoke, requests, models)) return undefined;
    }
    if (src.kind === "request") {
      if (src.modelOpen || src.request?.modelOpen) return undefined;
      if (src.name) requests.add(src.name.text);
      else if (!addInvokeId(machine, invoke, requests)) return undefined;
      if (src.model) models.add(src.model.text);
      else if (src.request?.model) models.add(src.request.model.text);
    }
  }
  return { requests, models };
}

/** The names a call of a registered actor carries, when it is request logic: the logic's own name (else
 *  the invoke's id) and its model. False when they cannot be known. */
function addActorNames(machine: MachineDef, actor: ActorDef, invoke: InvokeDef, requests: Set<string>, models: Set<string>): boolean {
  const logic = actor.logic;
  if (logic.kind === "other") return true;
  if (logic.kind === "unknown" || logic.open) return false;
  if (logic.name !== undefined) requests.add(logic.name);
  else if (!addInvokeId(machine, invoke, requests)) return false;
  if (logic.model !== undefined) models.add(logic.model);
  return true;
}

/** An unnamed request is named by its invoke's id: the written one, else the one XState generates
 *  (`<index>.<state node id>`, e.g. "0.(machine).drafting"). False when that cannot be known. */
function addInvokeId(machine: MachineDef, invoke: InvokeDef, requests: Set<string>): boolean {
  if (invoke.id) {
    requests.add(invoke.id.text);
    return true;
  }
  if (invoke.hasId || !machine.idsComplete) return false;
  const state = invoke.state;
  requests.add(`${state.invokes.indexOf(invoke)}.${state.id?.text ?? defaultStateId(machine, state)}`);
  return true;
}
