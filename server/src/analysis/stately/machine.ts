// A machine config → its state tree: states (nested, parallel, final, history), `initial`, `id`s,
// transitions from `on`, `always`, `after`, `onDone`, invoke `onDone`/`onError`/`onSnapshot`, history
// defaults, and invokes with their `src`. Targets are resolved after the whole tree is read.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import { calleeName, isFunctionLike, returnedExpressions, unwrap } from "../util/ts-nodes";
import type { ObjectView } from "../resolve/values";
import type { StatelyHost } from "./host";
import type { ActorDef, AgentDef, InvokeDef, MachineDef, MachineKind, StateDef, StateType, TargetDef } from "./model";
import { readSrc } from "./sources";
import { resolveTargets } from "./targets";
import { parseTransition } from "./transitions";

export interface MachineOptions {
  name: string;
  kind: MachineKind;
  agent?: AgentDef;
  setupActors?: Map<string, ActorDef>;
  setupActorsComplete?: boolean;
  exportName?: string;
  callee: ts.Node;
}

export const MAX_NESTING = 64;

export function readMachine(x: StatelyHost, at: Parsed, call: ts.CallExpression, o: MachineOptions): MachineDef {
  const symbolId = x.uniqueId(`${at.file}#machine:${o.name}`, at, call);
  const machine = {
    at,
    node: call,
    symbolId,
    name: o.name,
    kind: o.kind,
    exportName: o.exportName,
    agent: o.agent,
    setupActors: o.setupActors,
    setupActorsComplete: o.setupActorsComplete,
    calleeNode: ts.isPropertyAccessExpression(o.callee) ? o.callee.name : o.callee,
    states: [],
    idMap: new Map(),
    idsComplete: true,
    invokes: [],
    inlineRequests: new Map(),
  } as unknown as MachineDef;
  const config = x.values.object(at, call.arguments[0]);
  const idEntry = config?.entries.get("id");
  const configId = idEntry ? x.values.string(idEntry.at, idEntry.value) : undefined;
  if (idEntry && !configId) machine.idsComplete = false;
  machine.configId = configId?.text;
  machine.root = readState(x, machine, config, { at, node: call }, "", [], undefined, undefined, 0);
  for (const state of machine.states) machine.idMap.set(defaultStateId(machine, state), state);
  for (const state of machine.states) if (state.id) machine.idMap.set(state.id.text, state);
  resolveTargets(machine);
  return machine;
}

function readState(
  x: StatelyHost,
  machine: MachineDef,
  config: ObjectView | undefined,
  fallback: { at: Parsed; node: ts.Node },
  key: string,
  path: string[],
  parent: StateDef | undefined,
  keyNode: ts.Node | undefined,
  depth: number,
): StateDef {
  const where = config ?? fallback;
  const state: StateDef = {
    at: where.at,
    node: keyNode ? keyNode.parent : where.node,
    symbolId: x.uniqueId(`${machine.at.file}#state:${machine.name}${path.length ? "." + path.join(".") : ""}`, where.at, where.node),
    key,
    path,
    parent,
    machine,
    keyNode,
    type: "atomic",
    initialDynamic: false,
    children: new Map(),
    childrenComplete: !!config?.complete,
    configComplete: !!config?.complete,
    handledEvents: [],
    transitions: [],
    invokes: [],
  };
  if (!parent) state.node = where.node;
  machine.states.push(state);
  if (!config || depth > MAX_NESTING) {
    state.childrenComplete = false;
    state.configComplete = false;
    if (config) machine.nestingSkipped ??= state; // said by an analysis-skipped finding, never silently
    return state;
  }
  const e = config.entries;

  const idEntry = e.get("id");
  if (idEntry && parent) {
    const id = x.values.string(idEntry.at, idEntry.value);
    if (id) state.id = id;
    else machine.idsComplete = false;
  }

  const statesEntry = e.get("states");
  if (statesEntry) {
    const states = x.values.object(statesEntry.at, statesEntry.value);
    if (!states) state.childrenComplete = false;
    else {
      if (!states.complete) state.childrenComplete = false;
      for (const child of states.entries.values()) {
        const childConfig = x.values.object(child.at, child.value);
        const def = readState(x, machine, childConfig, { at: child.at, node: child.node }, child.name, [...path, child.name], state, child.nameNode, depth + 1);
        state.children.set(child.name, def);
      }
    }
  }

  const typeEntry = e.get("type");
  const type = typeEntry ? x.values.string(typeEntry.at, typeEntry.value)?.text : undefined;
  if (type === "parallel" || type === "final" || type === "history") state.type = type as StateType;
  else if (state.children.size > 0 || (statesEntry && !state.childrenComplete)) state.type = "compound";
  else if (typeEntry && !type) state.configComplete = false;

  const initialEntry = e.get("initial");
  if (initialEntry) {
    let initial = x.values.string(initialEntry.at, initialEntry.value);
    if (!initial) {
      const obj = x.values.object(initialEntry.at, initialEntry.value);
      const target = obj?.entries.get("target");
      if (target) initial = x.values.string(target.at, target.value);
    }
    if (initial) state.initial = initial;
    else state.initialDynamic = true;
  }

  const on = e.get("on");
  if (on) {
    const events = x.values.object(on.at, on.value);
    if (!events) state.configComplete = false;
    else {
      if (!events.complete) state.configComplete = false;
      for (const ev of events.entries.values()) {
        state.handledEvents.push(ev.name);
        addTransition(x, state, ev.name, ev.at, ev.value);
      }
    }
  }
  const always = e.get("always");
  if (always) addTransition(x, state, "always", always.at, always.value);
  // XState v6 choice states: `type: "choice", choice: ({ context }) => ({ target })`
  const choice = e.get("choice");
  if (choice) addTransition(x, state, "choice", choice.at, choice.value);
  const after = e.get("after");
  if (after) {
    const delays = x.values.object(after.at, after.value);
    if (!delays?.complete) state.configComplete = false;
    for (const d of delays?.entries.values() ?? []) addTransition(x, state, `after ${d.name}`, d.at, d.value);
  }
  const onDone = e.get("onDone");
  if (onDone) addTransition(x, state, "done", onDone.at, onDone.value);
  if (state.type === "history") {
    const target = e.get("target");
    if (target) addTransition(x, state, "history", target.at, target.value);
  }

  const invoke = e.get("invoke");
  if (invoke) {
    const v = x.values.valueOf(invoke.at, invoke.value);
    const items = v && ts.isArrayLiteralExpression(v.node) ? v.node.elements.map((el) => ({ at: v.at, node: el as ts.Node })) : v ? [mappedInvoke(x, v) ?? v] : [];
    if (!v) state.configComplete = false;
    for (const item of items) readInvoke(x, state, item.at, item.node);
  }
  return state;
}

/** `ids.map((id) => ({ id, src: "generateConfig", ... }))`, a fan-out written as a map: the one object
 *  its callback returns stands for each invoke it makes (how many does not change what they name). */
function mappedInvoke(x: StatelyHost, v: { at: Parsed; node: ts.Node }): { at: Parsed; node: ts.Node } | undefined {
  if (!ts.isCallExpression(v.node) || calleeName(v.node) !== "map" || !ts.isPropertyAccessExpression(unwrap(v.node.expression)) || !v.node.arguments[0]) return undefined;
  const fn = x.values.valueOf(v.at, v.node.arguments[0]);
  if (!fn || !isFunctionLike(fn.node)) return undefined;
  const returned = returnedExpressions(fn.node);
  const only = returned.length === 1 ? unwrap(returned[0]!) : undefined;
  return only && ts.isObjectLiteralExpression(only) ? { at: fn.at, node: only } : undefined;
}

function addTransition(x: StatelyHost, source: StateDef, event: string, at: Parsed, value: ts.Node): void {
  const parsed = parseTransition(x.values, at, value);
  // every field set up front: resolveTargets fills status and state in place, without a shape change
  const targets: TargetDef[] = parsed.targets.map((t) => ({ text: t.text, at: t.at, node: t.node, status: "open" as const, state: undefined }));
  for (const t of targets) x.noteTarget(t, source);
  source.transitions.push({ at, node: value, source, event, dynamic: parsed.dynamic, targets });
}

function readInvoke(x: StatelyHost, state: StateDef, at: Parsed, node: ts.Node): void {
  const view = x.values.object(at, node);
  if (!view) {
    state.configComplete = false;
    return;
  }
  const e = view.entries;
  const idEntry = e.get("id");
  const id = idEntry ? x.values.string(idEntry.at, idEntry.value) : undefined;
  const invoke: InvokeDef = { at: view.at, node: view.node, state, id, hasId: idEntry !== undefined, src: { kind: "none" }, hasOnError: e.has("onError"), hasOnDone: e.has("onDone") };
  const src = e.get("src");
  if (src) invoke.src = readSrc(x, state, invoke, src.at, src.value, view);
  else if (!view.complete) invoke.src = { kind: "unknown" };
  state.invokes.push(invoke);
  state.machine.invokes.push(invoke);
  const onDone = e.get("onDone");
  if (onDone) addTransition(x, state, "done", onDone.at, onDone.value);
  const onError = e.get("onError");
  if (onError) addTransition(x, state, "error", onError.at, onError.value);
  const onSnapshot = e.get("onSnapshot");
  if (onSnapshot) addTransition(x, state, "snapshot", onSnapshot.at, onSnapshot.value);
  if (!view.complete) state.configComplete = false;
}

/** A state node's id when it writes none: the machine's id (default "(machine)") and the state's path. */
export function defaultStateId(machine: MachineDef, state: StateDef): string {
  const rootId = machine.configId ?? "(machine)";
  return state.path.length ? `${rootId}.${state.path.join(".")}` : rootId;
}
