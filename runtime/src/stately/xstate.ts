// The one place that imports xstate. Everything else in the runtime goes through this module, so an
// alpha bump of xstate v6 (whose internals we read: invoke definitions, machine sources, inspection
// events) touches this file only.
import {
  setup,
  createActor,
  createAsyncLogic,
  initialTransition,
  transition,
  __unsafe_getAllOwnEventDescriptors,
} from "xstate";
import type {
  AnyActorLogic,
  AnyActorRef,
  AnyActorSystem,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventObject,
  InspectionEvent,
  StandardSchemaV1,
  StateValue,
  AsyncActorLogic,
  InputFrom,
  OutputFrom,
  EventFromLogic,
  SetupReturnFromConfig,
  SnapshotFrom,
} from "xstate";

export { setup, createActor, createAsyncLogic, initialTransition, transition };
export type {
  AnyActorLogic,
  AnyActorRef,
  AnyActorSystem,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventObject,
  InspectionEvent,
  StandardSchemaV1,
  StateValue,
  AsyncActorLogic,
  InputFrom,
  OutputFrom,
  EventFromLogic,
  SetupReturnFromConfig,
  SnapshotFrom,
};

/** One invoke of a state node, as xstate keeps it on the machine artifact. */
export interface InvokeDefinitionView {
  /** The invoke id (given, or generated from the state path). */
  id: string;
  /** The `src` as written: a source key, or an inline logic's generated key. */
  src: string;
  /** The logic the invoke starts, when it can be resolved without running the machine. */
  logic: AnyActorLogic | undefined;
  /** True when `src` is a string key into the machine's `actors` sources. */
  keyed: boolean;
  /** The invoke declares `onDone` / `onError` (its done / error event leads somewhere). */
  handlesDone: boolean;
  handlesError: boolean;
}

/** A state node as the verification helpers see it. */
export interface StateNodeView {
  /** XState's id of the node: "(machine).a.b" by default (the machine's id, then the path), or its own `id`. */
  id: string;
  /** Dotted path from the root ("" for the root). */
  path: string;
  key: string;
  type: string;
  /** Event types with a transition declared on this node (own `on`, excluding xstate internals). */
  ownEvents: string[];
  invokes: InvokeDefinitionView[];
  children: StateNodeView[];
}

interface RawStateNode {
  id: string;
  key: string;
  path: string[];
  type: string;
  states: Record<string, RawStateNode>;
  invoke: Array<{ id: string; src: unknown; logic: unknown; onDone?: unknown; onError?: unknown }>;
  ownEvents: string[];
}

function actorSources(machine: AnyStateMachine): Record<string, AnyActorLogic> {
  const sources = (machine as unknown as { sources?: { actors?: Record<string, AnyActorLogic> } }).sources;
  return sources?.actors ?? {};
}

/** Resolves an actor source key of the machine (setup `actors`) to its logic. */
export function actorSource(machine: AnyStateMachine, key: string): AnyActorLogic | undefined {
  return actorSources(machine)[key];
}

function isLogic(value: unknown): value is AnyActorLogic {
  return typeof value === "object" && value !== null && typeof (value as { transition?: unknown }).transition === "function";
}

function viewNode(machine: AnyStateMachine, node: RawStateNode): StateNodeView {
  const sources = actorSources(machine);
  return {
    id: node.id,
    path: node.path.join("."),
    key: node.key,
    type: node.type,
    ownEvents: (node.ownEvents ?? []).filter((type) => !type.startsWith("xstate.") && type !== "*"),
    invokes: (node.invoke ?? []).map((inv) => {
      const keyed = typeof inv.src === "string" && inv.src in sources;
      const logic = keyed ? sources[inv.src as string] : isLogic(inv.logic) ? inv.logic : undefined;
      return { id: inv.id, src: typeof inv.src === "string" ? inv.src : String(inv.id), logic, keyed, handlesDone: inv.onDone !== undefined, handlesError: inv.onError !== undefined };
    }),
    children: Object.values(node.states ?? {}).map((child) => viewNode(machine, child)),
  };
}

/** The machine's state tree, read from the artifact (no actor is started). */
export function stateTree(machine: AnyStateMachine): StateNodeView {
  return viewNode(machine, machine.root as unknown as RawStateNode);
}

/** Event types the snapshot's active state nodes accept (own transitions, xstate internals excluded). */
export function acceptedEventTypes(snapshot: AnyMachineSnapshot): string[] {
  return __unsafe_getAllOwnEventDescriptors(snapshot).filter(
    (type: string) => !type.startsWith("xstate.") && type !== "*" && !type.endsWith(".*"),
  );
}

/**
 * Calls `fn` with the snapshot and event of each transition the (not yet started) root actor takes,
 * its initial one included.
 * Hooks the actor's own transition report when this xstate has one, so no system-wide inspection runs
 * (inspecting makes xstate record every microstep of every actor); otherwise falls back to inspection.
 */
export function observeTransitions(actor: AnyActorRef, fn: (snapshot: AnyMachineSnapshot, event: EventObject) => void): void {
  const own = actor as unknown as { _inspectTransition?: (snapshot: AnyMachineSnapshot, event: EventObject) => unknown };
  const report = own._inspectTransition;
  if (typeof report === "function") {
    own._inspectTransition = function (this: unknown, snapshot: AnyMachineSnapshot, event: EventObject) {
      fn(snapshot, event);
      return report.call(this, snapshot, event);
    };
    // xstate skips reporting the initial transition of an actor nobody observes.
    actor.subscribe({ next() {}, error() {} });
    return;
  }
  inspectTransitions(actor, fn);
}

/** The same through the actor system's inspection (every actor's events, filtered to the root's transitions). */
export function inspectTransitions(actor: AnyActorRef, fn: (snapshot: AnyMachineSnapshot, event: EventObject) => void): void {
  (actor as unknown as { system: { inspect(observer: (event: InspectionEvent) => void): unknown } }).system.inspect((ev) => {
    if (ev.type === "@xstate.transition" && (ev.actorRef as unknown) === actor) {
      fn((ev as unknown as { snapshot: AnyMachineSnapshot }).snapshot, (ev as { event: EventObject }).event);
    }
  });
}

/** True while the actor's system has a delayed event (`after`, a delayed send) scheduled. */
export function hasPendingTimers(actor: AnyActorRef): boolean {
  const system = (actor as { system?: { getSnapshot?: () => { _scheduledTimers?: Record<string, unknown> } } }).system;
  const timers = system?.getSnapshot?.()._scheduledTimers;
  return !!timers && Object.keys(timers).length > 0;
}

/** The parent actor of an actor, when it has one (xstate keeps it on `_parent`). */
export function parentOf(actor: unknown): AnyActorRef | undefined {
  return (actor as { _parent?: AnyActorRef })._parent;
}

/** The `meta` of the snapshot's active states, merged (ancestors first, so the deepest state wins). */
export function stateMeta(snapshot: AnyMachineSnapshot): Record<string, unknown> {
  const byState = (snapshot as { getMeta?: () => Record<string, unknown> }).getMeta?.() ?? {};
  const merged: Record<string, unknown> = {};
  for (const meta of Object.values(byState)) if (meta && typeof meta === "object") Object.assign(merged, meta);
  return merged;
}

/** The state value as dotted leaf paths ("a.b"; parallel regions joined by ","). */
export function dottedStateValue(value: StateValue): string {
  const leaves: string[] = [];
  const walk = (v: StateValue, prefix: string): void => {
    if (typeof v === "string") {
      leaves.push(prefix ? `${prefix}.${v}` : v);
      return;
    }
    const keys = Object.keys(v);
    if (keys.length === 0 && prefix) leaves.push(prefix);
    for (const key of keys) walk(v[key] as StateValue, prefix ? `${prefix}.${key}` : key);
  };
  walk(value, "");
  return leaves.join(",");
}
