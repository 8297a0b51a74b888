// The event log a run returns as `result.events`: one JSON-safe entry per root-machine transition, in
// order, the machine's start recorded as `@agent.init` with its input. Entries are built from the trace
// when the result is made, so recording a transition stays a push.
import { AgentError } from "./errors";
import { jsonSafe } from "./json-safe";
import type { RunTrace } from "./trace";
import { stateTree, type AnyStateMachine, type StateNodeView } from "./xstate";

/** One entry of a run's event log. */
export interface AgentLogEntry {
  schemaVersion: 1;
  /** Unique per entry. */
  id: string;
  /** Position in the whole log (continues across resumed legs). */
  index: number;
  /** When the event was taken (ISO). */
  recordedAt: string;
  machineId: string;
  /** `machine.version` when the machine declares one, else a hash of its structure. */
  machineVersion: string;
  /** The event, JSON-safe. */
  event: { type: string; [key: string]: unknown };
}

const AGENT_INIT_EVENT = "@agent.init";

const versions = new WeakMap<AnyStateMachine, string>();

/** A short hash of the machine's states, transitions and invokes (stable across processes). */
function machineVersionOf(machine: AnyStateMachine): string {
  const declared = (machine as { version?: unknown }).version;
  if (typeof declared === "string" && declared) return declared;
  let version = versions.get(machine);
  if (!version) {
    const parts: string[] = [];
    const walk = (node: StateNodeView): void => {
      parts.push(`${node.path}|${node.type}|${node.ownEvents.join(",")}|${node.invokes.map((i) => i.src).join(",")}`);
      node.children.forEach(walk);
    };
    walk(stateTree(machine));
    version = fnv1a(parts.join("\n"));
    versions.set(machine, version);
  }
  return version;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

let counter = 0;
function entryId(): string {
  counter = (counter + 1) % 0x100000;
  return `${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Checks an earlier leg's log passed back in to continue it. */
export function checkPriorLog(events: unknown, api: string): AgentLogEntry[] {
  if (events === undefined) return [];
  if (!Array.isArray(events) || events.some((e) => typeof e !== "object" || e === null || typeof (e as AgentLogEntry).event?.type !== "string")) {
    throw new AgentError("invalid-options", `${api}: events must be the \`events\` of an earlier result (an array of log entries), to continue that run's log.`);
  }
  return events as AgentLogEntry[];
}

/** The log of a leg: the prior entries, then one entry per transition the trace recorded (the first `count`). */
function buildLog(machine: AnyStateMachine, trace: RunTrace, input: unknown, prior: AgentLogEntry[] = [], count = trace.rawEvents.length): AgentLogEntry[] {
  const machineId = String((machine as { id?: unknown }).id ?? "(machine)");
  const machineVersion = machineVersionOf(machine);
  const log = [...prior];
  trace.rawEvents.slice(0, count).forEach((raw, i) => {
    const event = raw.type === "@xstate.init"
      ? { type: AGENT_INIT_EVENT, ...(input !== undefined ? { input: jsonSafe(input) } : {}) }
      : (jsonSafe(raw) as AgentLogEntry["event"]);
    log.push({
      schemaVersion: 1,
      id: entryId(),
      index: log.length,
      recordedAt: new Date(trace.times[i]!).toISOString(),
      machineId,
      machineVersion,
      event,
    });
  });
  return log;
}

/**
 * Gives `result` an `events` log built on first read (most runs are never asked for it), frozen to the
 * transitions recorded so far. Reading it, spreading the result or serialising it all see the log.
 */
export function withLazyLog<T extends object>(result: T, machine: AnyStateMachine, trace: RunTrace, input: unknown, prior: AgentLogEntry[] = []): T & { events: AgentLogEntry[] } {
  const count = trace.rawEvents.length;
  const settle = (target: object, value: AgentLogEntry[]) => Object.defineProperty(target, "events", { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(result, "events", {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const log = buildLog(machine, trace, input, prior, count);
      settle(this, log);
      return log;
    },
    set(this: object, value: AgentLogEntry[]) {
      settle(this, value);
    },
  });
  return result as T & { events: AgentLogEntry[] };
}
