// Eval call checks: unknown-script-key, unknown-seam, unknown-state-ref, empty-trajectory.
import type { Finding } from "../types";
import type { EvalCall, MachineDef } from "../stately/model";
import { resolveStateRef } from "../stately/targets";
import { finding, replaceWithNearest } from "./finding";

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
  }
  for (const state of machine.states) if (!state.configComplete || !state.childrenComplete) return undefined;
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind === "unknown") return undefined;
    if (src.kind === "request") {
      if (src.name) requests.add(src.name.text);
      else if (invoke.id) requests.add(invoke.id.text);
      if (src.model) models.add(src.model.text);
      else if (src.request?.model) models.add(src.request.model.text);
    }
  }
  return { requests, models };
}

export function checkEvalCall(call: EvalCall): Finding[] {
  const out: Finding[] = [];
  if (call.emptyTrajectory) out.push(finding("empty-trajectory", "The expected trajectory is empty: matchesTrajectory fails on an empty expectation instead of scoring it.", call.emptyTrajectory));
  const machine = call.machine;
  if (!machine) return out;
  const names = requestNamesOf(machine);
  if (names && call.api === "runSeam") {
    for (const key of call.scripts) {
      if (names.requests.has(key.text) || names.models.has(key.text)) continue;
      out.push(finding("unknown-script-key", `scripts key "${key.text}" matches no request name and no model key of machine "${machine.name}".`, key, replaceWithNearest(key, [...names.requests, ...names.models])));
    }
    if (call.seamRequest && !names.requests.has(call.seamRequest.text)) {
      out.push(finding("unknown-seam", `seam request "${call.seamRequest.text}" is not a request of machine "${machine.name}".`, call.seamRequest, replaceWithNearest(call.seamRequest, names.requests)));
    }
  }
  out.push(...checkStateRefs(call, machine));
  return out;
}

function checkStateRefs(call: EvalCall, machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const ref of call.stateRefs) {
    const r = resolveStateRef(machine, ref.text);
    if (r !== undefined) continue;
    const names = machine.states.filter((s) => s.parent).map((s) => s.path.join("."));
    out.push(finding("unknown-state-ref", `${call.api}: machine "${machine.name}" has no state "${ref.text}".`, ref, replaceWithNearest(ref, names)));
  }
  return out;
}
