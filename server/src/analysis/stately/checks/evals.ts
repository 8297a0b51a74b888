// Eval call checks: unknown-script-key, unknown-seam, unknown-state-ref, unknown-event, empty-trajectory.
import type { Finding } from "../../types";
import { machineEvents } from "../events";
import type { EvalCall, MachineDef, StateDef, Text } from "../model";
import { resolveStateRef } from "../targets";
import { finding, findingWithNearest, machineLabel } from "./finding";
import { requestNamesOf, type Names } from "../names";

export function checkEvalCall(call: EvalCall): Finding[] {
  const out: Finding[] = [];
  if (call.emptyTrajectory) out.push(finding("empty-trajectory", "The expected trajectory is empty: matchesTrajectory fails on an empty expectation instead of scoring it.", call.emptyTrajectory));
  const machine = call.machine;
  if (!machine) return out;
  const names = requestNamesOf(machine);
  if (names && call.api === "runSeam") {
    for (const key of call.scripts) {
      if (names.requests.has(key.text) || names.models.has(key.text)) continue;
      out.push(findingWithNearest("unknown-script-key", `scripts key "${key.text}" matches no request name and no model key of ${machineLabel(machine)}.`, key, [...names.requests, ...names.models]));
    }
    out.push(...checkSharedModelKeys(call, machine, names));
    if (call.seamRequest && !names.requests.has(call.seamRequest.text)) {
      out.push(findingWithNearest("unknown-seam", `seam request "${call.seamRequest.text}" is not a request of ${machineLabel(machine)}.`, call.seamRequest, names.requests));
    }
  }
  out.push(...checkStateRefs(call, machine), ...checkStateValueRefs(call, machine), ...checkEventRefs(call, machine));
  return out;
}

/** unnamed-request where a missing name changes what runs: a scripts key that is a model key answers, in
 *  call order, every text call of that model whose name has no queue of its own. When two or more calls
 *  share it and one of them has no name (its name is a generated invoke id nobody writes), answers can
 *  reach the wrong call. */
function checkSharedModelKeys(call: EvalCall, machine: MachineDef, names: Names): Finding[] {
  if (!call.scriptsComplete) return [];
  const keys = new Set(call.scripts.map((k) => k.text));
  const out: Finding[] = [];
  for (const key of call.scripts) {
    if (names.requests.has(key.text) || !names.models.has(key.text)) continue;
    const fed = names.calls.filter((c) => c.kind === "text" && c.model === key.text && !keys.has(c.name));
    if (fed.length < 2 || !fed.some((c) => c.unnamed)) continue;
    const list = fed.map((c) => (c.unnamed ? `the unnamed request in state "${c.invoke.state.path.join(".")}" (named "${c.name}" by its invoke id)` : `"${c.name}"`)).join(", ");
    out.push(finding("unnamed-request", `scripts key "${key.text}" is a model key: it answers ${fed.length} requests of ${machineLabel(machine)} in call order — ${list}. Give the unnamed ones a name and key their answers by name, so each answer reaches the call it was written for.`, key));
  }
  return out;
}

function checkStateRefs(call: EvalCall, machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const ref of call.stateRefs) {
    const r = resolveStateRef(machine, ref.text);
    if (r !== undefined) continue;
    const names = machine.states.filter((s) => s.parent).map((s) => s.path.join("."));
    out.push(findingWithNearest("unknown-state-ref", `${call.api}: ${machineLabel(machine)} has no state "${ref.text}".`, ref, names));
  }
  return out;
}

/** `{ review: "editing" }`: each key path must go down the state tree. */
function checkStateValueRefs(call: EvalCall, machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const path of call.stateValueRefs) {
    let state: StateDef = machine.root;
    for (const segment of path) {
      if (!state.childrenComplete) break;
      const child = state.children.get(segment.text);
      if (child) {
        state = child;
        continue;
      }
      const where = state.parent ? `state "${state.path.join(".")}"` : machineLabel(machine);
      out.push(findingWithNearest("unknown-state-ref", `${call.api}: ${where} has no child state "${segment.text}".`, segment, state.children.keys()));
      break;
    }
  }
  return out;
}

/** Expected event types of an event log: events the machine declares or handles, built-in ones
 *  (`xstate.*`, `@...`, `agent.*`), and state names (a deliberate non-match) are fine. */
function checkEventRefs(call: EvalCall, machine: MachineDef): Finding[] {
  if (call.eventRefs.length === 0) return [];
  const events = machineEvents(machine);
  if (!events) return [];
  const states = new Set(machine.states.map((s) => s.key));
  const wildcards = wildcardPrefixes(events);
  const out: Finding[] = [];
  for (const ref of call.eventRefs) {
    if (events.has(ref.text) || states.has(ref.text) || isBuiltInEvent(ref) || matchesWildcard(ref.text, wildcards)) continue;
    out.push(findingWithNearest("unknown-event", `${call.api}: ${machineLabel(machine)} neither declares nor handles an event "${ref.text}".`, ref, events));
  }
  return out;
}

/** What the handled wildcard descriptors (`"*"`, `"user.*"`) match: events starting with these prefixes. */
function wildcardPrefixes(events: Set<string>): string[] {
  const prefixes: string[] = [];
  for (const e of events) if (e === "*" || e.endsWith(".*")) prefixes.push(e.slice(0, -1));
  return prefixes;
}

function matchesWildcard(type: string, prefixes: string[]): boolean {
  for (const p of prefixes) if (type.startsWith(p)) return true;
  return false;
}

function isBuiltInEvent(ref: Text): boolean {
  const t = ref.text;
  return t.startsWith("xstate.") || t.startsWith("@") || t.startsWith("agent.") || t.includes("*") || t === "";
}
