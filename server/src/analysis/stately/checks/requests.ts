// Request and invoke checks: unnamed-request, unknown-request, direct-object-src,
// decide-without-events, invoke-without-on-error.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Finding } from "../../types";
import type { InvokeDef, MachineDef, StateDef } from "../model";
import { invokeIdOf } from "../names";
import { finding, findingWithNearest, insertAt } from "./finding";

/** An unnamed inline request runs under its invoke id: a hint saying which, and that a name helps. Where
 *  the missing name changes what runs (a scripts key feeding it and another call), the eval check warns. */
export function checkUnnamedRequests(machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    // A written invoke id names the request (request.name falls back to it): that is a name.
    if (src.kind !== "request" || src.name || invoke.hasId) continue;
    const suggested = invoke.state.key || "request";
    const argAt = src.argAt ?? src.at;
    const fixes = src.arg && ts.isObjectLiteralExpression(src.arg) ? [insertAt(argAt, src.arg.getStart(argAt.sf) + 1, ` name: "${suggested}",`, `Add name: "${suggested}"`)] : [];
    const callee = ts.isCallExpression(src.node) ? src.node.expression : src.node;
    const kind = src.logic === "decision" ? "decision" : "text";
    const id = invokeIdOf(machine, invoke);
    const runsAs = id === undefined ? "the invoke id XState generates for it" : `its invoke id "${id}"`;
    const message = `This inline ${kind} request (${src.via}) has no name, so its request.name is ${runsAs}. A name of its own (name: "${suggested}") keeps scripts, executors and logs keyed the same when states move or are renamed.`;
    out.push({ ...finding("unnamed-request", message, { at: src.at, node: callee }, fixes), severity: "hint" });
  }
  return out;
}

export function checkUnknownRequests(machine: MachineDef): Finding[] {
  const known = knownSrcNames(machine);
  if (!known) return [];
  const out: Finding[] = [];
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind !== "string" || src.text.startsWith("agent.") || known.has(src.text)) continue;
    const what = machine.kind === "agent" ? "a request or actor declared in setupAgent" : "an actor declared in setup";
    out.push(findingWithNearest("unknown-request", `invoke src "${src.text}" is not ${what}.`, src, known));
  }
  return out;
}

/** Names an invoke src may use, or undefined when they cannot be known (plain createMachine, or a config
 *  with parts that could not be read). */
function knownSrcNames(machine: MachineDef): Set<string> | undefined {
  if (machine.kind === "agent" && machine.agent) {
    if (!machine.agent.requestsComplete || !machine.agent.actorsComplete) return undefined;
    return new Set([...machine.agent.requests.keys(), ...machine.agent.actors.keys()]);
  }
  if (machine.kind === "setup" && machine.setupActors && machine.setupActorsComplete) return new Set(machine.setupActors.keys());
  return undefined;
}

export function checkDirectObjectSrc(machine: MachineDef): Finding[] {
  if (machine.kind !== "agent") return [];
  const out: Finding[] = [];
  for (const invoke of machine.invokes) {
    if (invoke.src.kind !== "object") continue;
    out.push(finding("direct-object-src", `invoke src is ${invoke.src.what}: executors cannot rebind it. Declare it in setupAgent({ actors }) and invoke it by name.`, { at: invoke.src.at, node: invoke.src.node }));
  }
  return out;
}

function isDecision(invoke: InvokeDef): boolean {
  const src = invoke.src;
  if (src.kind === "request") return src.logic === "decision";
  if (src.kind === "string") return src.text === "agent.decide" || invoke.state.machine.agent?.requests.get(src.text)?.kind === "decision";
  return false;
}

function selfAndAncestors(state: StateDef): StateDef[] {
  const out: StateDef[] = [];
  for (let s: StateDef | undefined = state; s; s = s.parent) out.push(s);
  return out;
}

export function checkDecideWithoutEvents(machine: MachineDef): Finding[] {
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
}

export function checkInvokeWithoutOnError(machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const invoke of machine.invokes) {
    if (invoke.hasOnError) continue;
    const chain = selfAndAncestors(invoke.state);
    if (chain.some((s) => !s.configComplete || s.handledEvents.some((e) => e === "*" || e.startsWith("xstate.error")))) continue;
    const where = invoke.src.kind === "string" || invoke.src.kind === "request" || invoke.src.kind === "object" ? { at: invoke.src.at, node: invoke.src.node } : invoke;
    out.push(finding("invoke-without-on-error", `This invoke has no onError and no ancestor handles actor errors: a failure stops the run.`, where));
  }
  return out;
}
