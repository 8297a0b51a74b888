// matchesTrajectory: scores a run's trajectory — a state path (state values, dotted strings, snapshots)
// or an event log (events, log entries) — against an expected one. By default the expected items must
// appear in order with gaps allowed; `{ exact: true }` wants the same items in the same positions.
//   - a string matches an event by its type, or a state value when it is the dotted path of one of the
//     value's leaves or of an ancestor of one ("review" matches { review: "editing" }); simulateAgent's
//     trail entries count as the state they reached;
//   - an event object matches an event of its type whose other listed keys are deep-equal;
//   - a state value (object) matches an equal state value.
// Events never match state values. An empty expectation is refused (`empty-trajectory`): it would match
// any run.
import { captureCallSite, report } from "../../shared/report";
import { AgentError } from "../errors";
import { errorPayload, jsonSafe } from "../json-safe";
import { reporterInstalled } from "../reporting";
import type { AgentLogEntry } from "../event-log";
import type { AnyStateMachine, StateValue } from "../xstate";
import { machineInfo } from "./machine-info";
import { AgentUnknownStateError } from "./state-names";

/** An event-shaped item: anything with a string `type`. */
export interface TrajectoryEvent {
  type: string;
  [key: string]: unknown;
}

/** One item of a trajectory: a state value (string, dotted path or object), an event, a log entry, or a snapshot. */
export type TrajectoryItem = StateValue | TrajectoryEvent | AgentLogEntry | { value: StateValue; status: string };

export interface MatchTrajectoryOptions {
  /** Same items in the same positions, and nothing more (default: ordered subsequence, gaps allowed). */
  exact?: boolean;
  /** Check every expected state against this machine first (an unknown one throws `unknown-state`). */
  machine?: AnyStateMachine;
}

/** The first expected item that was not found. */
export interface TrajectoryMiss {
  /** Its position in `expected`. */
  index: number;
  expected: TrajectoryItem;
  /** The position in `actual` the search for it started from. */
  searchedFrom: number;
}

export interface TrajectoryMatch {
  matched: boolean;
  /** Expected items matched before the first miss. */
  matchedCount: number;
  expectedCount: number;
  /** 0..1: matchedCount / expectedCount (exact mode: over the longer of the two). */
  score: number;
  firstMiss?: TrajectoryMiss;
}

type Item = { kind: "event"; event: TrajectoryEvent } | { kind: "state"; value: StateValue };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStateValue(value: unknown, depth = 0): value is StateValue {
  if (typeof value === "string") return true;
  if (!isRecord(value) || depth > 32) return false;
  return Object.values(value).every((child) => isStateValue(child, depth + 1));
}

/** Classifies one item, or says what is wrong with it. */
function classify(item: unknown): Item | string {
  if (typeof item === "string") return { kind: "state", value: item };
  if (!isRecord(item)) return `${item === null ? "null" : Array.isArray(item) ? "an array" : typeof item} is neither a state nor an event`;
  const nested = item.event;
  if (isRecord(nested) && typeof nested.type === "string") return { kind: "event", event: nested as TrajectoryEvent };
  if ("type" in item) return typeof item.type === "string" ? { kind: "event", event: item as TrajectoryEvent } : "an event's `type` must be a string";
  if ("value" in item && "status" in item) {
    return isStateValue(item.value) ? { kind: "state", value: item.value } : "a snapshot whose `value` is not a state value";
  }
  // simulateAgent's trail entries: { event, state } with the state after the event.
  if (typeof item.event === "string" && typeof item.state === "string" && Object.keys(item).length === 2) return { kind: "state", value: item.state };
  return isStateValue(item) ? { kind: "state", value: item } : "an object that is neither an event (no `type`) nor a state value (leaves must be strings)";
}

function classifyAll(items: readonly unknown[], side: "actual" | "expected"): Item[] {
  return items.map((item, index) => {
    const c = classify(item);
    if (typeof c === "string") {
      throw new AgentError("invalid-trajectory", `matchesTrajectory: ${side}[${index}] is ${c}; use state names ("drafting", "review.editing"), state values, snapshots, events ({ type }) or log entries.`);
    }
    return c;
  });
}

/** Every leaf of a state value as a dotted path ({ review: "editing" } → "review.editing"); a dotted
 *  string with parallel regions joined by "," (getStatePath's form) names each region's leaf. */
function leafPaths(value: StateValue, prefix = ""): string[] {
  if (typeof value === "string") {
    if (!prefix && value.includes(",")) return value.split(",");
    return [prefix ? `${prefix}.${value}` : value];
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return prefix ? [prefix] : [];
  return entries.flatMap(([key, child]) => leafPaths(child as StateValue, prefix ? `${prefix}.${key}` : key));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

function itemMatches(expected: Item, expectedRaw: unknown, actual: Item): boolean {
  if (typeof expectedRaw === "string") {
    if (actual.kind === "event") return actual.event.type === expectedRaw;
    return leafPaths(actual.value).some((leaf) => leaf === expectedRaw || leaf.startsWith(`${expectedRaw}.`));
  }
  if (expected.kind !== actual.kind) return false;
  if (expected.kind === "event" && actual.kind === "event") {
    return Object.keys(expected.event).every((key) => deepEqual(expected.event[key], actual.event[key]));
  }
  return deepEqual((expected as { value: StateValue }).value, (actual as { value: StateValue }).value);
}

function checkOptions(options: unknown): MatchTrajectoryOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) throw new AgentError("invalid-options", "matchesTrajectory: options must be an object such as { exact: true }.");
  const { exact, machine } = options as MatchTrajectoryOptions;
  if (exact !== undefined && typeof exact !== "boolean") throw new AgentError("invalid-options", "matchesTrajectory: exact must be true or false.");
  if (machine !== undefined && (typeof machine !== "object" || machine === null || !("root" in machine))) {
    throw new AgentError("invalid-options", "matchesTrajectory: machine must be a machine made by agent.createMachine(...).");
  }
  return options as MatchTrajectoryOptions;
}

/** Each expected state (a string or a state value) must name a state of the machine, from its root. */
function checkStates(machine: AnyStateMachine, expected: readonly unknown[], items: Item[]): void {
  const states = new Set(machineInfo(machine).states);
  items.forEach((item, index) => {
    if (item.kind === "event") return;
    const paths = typeof expected[index] === "string" ? [expected[index] as string] : leafPaths(item.value);
    for (const path of paths) {
      if (!states.has(path)) throw new AgentUnknownStateError(`matchesTrajectory (expected[${index}])`, path, [...states]);
    }
  });
}

/** Scores `actual` against `expected`; see the module comment for what matches what. */
export function matchesTrajectory(actual: readonly unknown[], expected: readonly TrajectoryItem[], options?: MatchTrajectoryOptions): TrajectoryMatch {
  const callSite = reporterInstalled() ? captureCallSite() : undefined;
  try {
    if (!Array.isArray(actual)) {
      throw new AgentError("invalid-trajectory", "matchesTrajectory: actual must be an array: a state path (run.after.statePath, values from onTransition) or an event log (result.events, run.after.events).");
    }
    if (!Array.isArray(expected)) {
      throw new AgentError("invalid-trajectory", "matchesTrajectory: expected must be an array of the states or events you expect, in order.");
    }
    if (expected.length === 0) {
      throw new AgentError("empty-trajectory", "matchesTrajectory: the expected trajectory is empty, so any run would match; list the states or events you expect, in order.");
    }
    const opts = checkOptions(options);
    const want = classifyAll(expected, "expected");
    const have = classifyAll(actual, "actual");
    if (opts.machine) checkStates(opts.machine, expected, want);
    const result = opts.exact ? matchExact(want, expected, have) : matchInOrder(want, expected, have);
    if (callSite) report("trajectory", { actual: jsonSafe(actual, 6), expected: jsonSafe(expected, 6), ...jsonSafe(result) as object }, callSite);
    return result;
  } catch (error) {
    if (callSite) report("trajectory", { error: errorPayload(error) }, callSite);
    throw error;
  }
}

function matchInOrder(want: Item[], expected: readonly TrajectoryItem[], have: Item[]): TrajectoryMatch {
  const expectedCount = want.length;
  let cursor = 0;
  for (let index = 0; index < expectedCount; index++) {
    let found = -1;
    for (let at = cursor; at < have.length; at++) {
      if (itemMatches(want[index]!, expected[index], have[at]!)) {
        found = at;
        break;
      }
    }
    if (found < 0) {
      return { matched: false, matchedCount: index, expectedCount, score: index / expectedCount, firstMiss: { index, expected: expected[index]!, searchedFrom: cursor } };
    }
    cursor = found + 1;
  }
  return { matched: true, matchedCount: expectedCount, expectedCount, score: 1 };
}

function matchExact(want: Item[], expected: readonly TrajectoryItem[], have: Item[]): TrajectoryMatch {
  const expectedCount = want.length;
  let matchedCount = 0;
  let firstMiss: TrajectoryMiss | undefined;
  for (let index = 0; index < expectedCount; index++) {
    if (index < have.length && itemMatches(want[index]!, expected[index], have[index]!)) {
      matchedCount++;
      continue;
    }
    firstMiss = { index, expected: expected[index]!, searchedFrom: index };
    break;
  }
  const matched = !firstMiss && have.length === expectedCount;
  const score = matched ? 1 : matchedCount / Math.max(expectedCount, have.length);
  return { matched, matchedCount, expectedCount, score, ...(firstMiss ? { firstMiss } : {}) };
}
