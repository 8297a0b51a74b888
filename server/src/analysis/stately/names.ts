// The names a machine's model calls can carry: request names (declared requests, inline named requests,
// invoke ids of unnamed inline requests) and model keys. Scripts route by either; the seam by a name.
// Also each call the machine's invokes make, with the name and model it carries (what routes it).
import { defaultStateId } from "./machine";
import type { ActorDef, InvokeDef, MachineDef } from "./model";

/** One model call an invoke makes: the name it carries (its request's, else its invoke's id), its model
 *  key when one is written, and whether it is unnamed (no name and no written invoke id: the name is the
 *  id XState generates). */
export interface RequestCall {
  invoke: InvokeDef;
  name: string;
  model?: string;
  kind: "text" | "decision";
  unnamed: boolean;
}

export type Names = { requests: Set<string>; models: Set<string>; calls: RequestCall[] };

/** Request names a machine's calls can carry (declared names, inline names, invoke ids of unnamed
 *  inline requests), its model keys, and its invokes' calls. Undefined when not all of them can be known. */
export function requestNamesOf(machine: MachineDef): Names | undefined {
  const names: Names = { requests: new Set(), models: new Set(), calls: [] };
  const { requests, models } = names;
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
      const declared = machine.agent?.requests.get(src.text);
      if (declared) {
        names.calls.push({ invoke, name: src.text, model: declared.model?.text, kind: declared.kind, unnamed: false });
        continue;
      }
      const actor = machine.agent?.actors.get(src.text) ?? machine.setupActors?.get(src.text);
      if (actor && !addActorNames(machine, actor, invoke, names)) return undefined;
    }
    if (src.kind === "request") {
      if (src.modelOpen || src.request?.modelOpen) return undefined;
      const name = src.name?.text ?? invokeIdOf(machine, invoke);
      if (name === undefined) return undefined;
      requests.add(name);
      const model = src.model?.text ?? src.request?.model?.text;
      if (model !== undefined) models.add(model);
      names.calls.push({ invoke, name, model, kind: src.logic, unnamed: !src.name && !invoke.hasId });
    }
  }
  return names;
}

/** The names a call of a registered actor carries, when it is request logic: the logic's own name (else
 *  the invoke's id) and its model. False when they cannot be known. */
function addActorNames(machine: MachineDef, actor: ActorDef, invoke: InvokeDef, names: Names): boolean {
  const logic = actor.logic;
  if (logic.kind === "other") return true;
  if (logic.kind === "unknown" || logic.open) return false;
  const name = logic.name ?? invokeIdOf(machine, invoke);
  if (name === undefined) return false;
  names.requests.add(name);
  if (logic.model !== undefined) names.models.add(logic.model);
  // registered logic is named by its registration key upstream (and routed by it in scripts): not unnamed
  names.calls.push({ invoke, name, model: logic.model, kind: logic.logic, unnamed: false });
  return true;
}

/** An unnamed request is named by its invoke's id: the written one, else the one XState generates
 *  (`<index>.<state node id>`, e.g. "0.(machine).drafting"). Undefined when that cannot be known. */
export function invokeIdOf(machine: MachineDef, invoke: InvokeDef): string | undefined {
  if (invoke.id) return invoke.id.text;
  if (invoke.hasId || !machine.idsComplete) return undefined;
  const state = invoke.state;
  return `${state.invokes.indexOf(invoke)}.${state.id?.text ?? defaultStateId(machine, state)}`;
}
