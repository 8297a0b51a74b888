// explorePaths / canReach: walk the machine artifact with XState's pure transition function. Events
// tried in each state: every event type the active states handle (payload {}), the done event of each
// invoked request (with a sample answer) or actor (with `invokes[src]`), and error events for invokes
// listed in `errors`. A handled event that changes nothing (a guard said no, or the transition function
// returned nothing) counts in `prunedByGuard`; a done / error event its invoke does not handle is no
// guard's doing and counts nowhere. A transition XState rejects (a target that names no state, an actor
// it cannot find) is an error of the exploration: listed in `errors` with the state and event, and the
// path ends there ("error").
import { captureCallSite, report } from "../../shared/report";
import { AgentError } from "../errors";
import { errorPayload } from "../json-safe";
import { checkLegOptions } from "../run-engine";
import { requestSpecOf } from "../request-spec";
import { validate } from "../schema";
import { agentDefinitionOf } from "../setup-agent";
import { readableIds } from "../user-names";
import { acceptedEventTypes, dottedStateValue, initialTransition, stateTree, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type StateNodeView } from "../xstate";
import { exampleOf } from "./keyless";
import { machineInfo } from "./machine-info";
import { checkStateRef, refMatches } from "./state-names";

export interface ExplorePathsOptions {
  input?: unknown;
  /** Longest path (events) to follow; default 12. */
  maxDepth?: number;
  /** Most terminal paths to collect; default 100. */
  maxPaths?: number;
  /** Sample answers of text requests by request name (default: an example of the output schema). */
  text?: Record<string, unknown>;
  /** Outputs of other invoked actors by src. */
  invokes?: Record<string, unknown>;
  /** Invokes (by request name or src) whose error branch is explored too, with the error to deliver; `true` explores every invoke's error branch. */
  errors?: Record<string, unknown> | true;
}

export interface AgentPathTerminal {
  /** Dotted state values from the initial state to the terminal. */
  states: string[];
  /** Event types taken. */
  events: string[];
  /** done: a final state; stuck: no event changes anything; depth: maxDepth reached; cycle: only revisits
   *  left; error: XState rejected every transition tried from here (see AgentPathReport.errors). */
  end: "done" | "stuck" | "depth" | "cycle" | "error";
}

/** A transition XState rejected while exploring: from which state, on which event, and why. */
export interface AgentPathError {
  /** Dotted state value the transition started from. */
  state: string;
  /** The event type tried. */
  event: string;
  message: string;
}

export interface AgentPathReport {
  terminals: AgentPathTerminal[];
  reachedStates: string[];
  prunedByGuard: number;
  hitPathCap: boolean;
  /** Transitions XState rejected (each state and event once); empty when every transition tried was valid. */
  errors: AgentPathError[];
}

interface Step {
  snapshot: AnyMachineSnapshot;
  states: string[];
  events: string[];
}

type InvokeEntry = { src: string; name: string | undefined; logic: unknown; handlesDone: boolean; handlesError: boolean };

function invokeIndex(machine: AnyStateMachine): Map<string, InvokeEntry> {
  const index = new Map<string, InvokeEntry>();
  const walk = (node: StateNodeView): void => {
    for (const inv of node.invokes) {
      const spec = requestSpecOf(inv.logic);
      index.set(inv.id, { src: inv.src, name: spec && !spec.inline ? spec.name ?? inv.id : undefined, logic: inv.logic, handlesDone: inv.handlesDone, handlesError: inv.handlesError });
    }
    node.children.forEach(walk);
  };
  walk(stateTree(machine));
  return index;
}

/** An event to try, and whether the state handles it (a handled event that changes nothing was guarded). */
type Candidate = { event: EventObject; handled: boolean };

function candidateEvents(snapshot: AnyMachineSnapshot, options: ExplorePathsOptions, invokes: ReturnType<typeof invokeIndex>): Candidate[] {
  const events: Candidate[] = acceptedEventTypes(snapshot).map((type) => ({ event: { type }, handled: true }));
  for (const id of Object.keys(snapshot.children ?? {})) {
    const inv = invokes.get(id);
    if (!inv) continue;
    const spec = requestSpecOf(inv.logic);
    const key = inv.name ?? inv.src;
    if (spec?.kind === "text") {
      const answer = options.text && key in options.text ? options.text[key] : spec.outputSchema ? exampleOf(spec.outputSchema) : "example";
      events.push({ event: { type: `xstate.done.actor.${id}`, output: { result: answer, messages: [] } } as EventObject, handled: inv.handlesDone });
    } else if (!spec) {
      events.push({ event: { type: `xstate.done.actor.${id}`, output: options.invokes?.[inv.src] } as EventObject, handled: inv.handlesDone });
    }
    const errors = options.errors;
    if (errors === true || (errors && (key in errors || inv.src in errors))) {
      const error = errors === true ? new Error("explored error") : errors[key] ?? errors[inv.src];
      events.push({ event: { type: `xstate.error.actor.${id}`, error } as EventObject, handled: inv.handlesError });
    }
  }
  return events;
}

/**
 * The initial snapshot. A given input is checked against the agent's input schema; without one, a
 * machine that declares an input schema starts from an example of it (the walk needs a start, not a
 * particular run), and only a machine that cannot start that way asks for `input`.
 */
function startSnapshot(machine: AnyStateMachine, given: unknown, api: string): AnyMachineSnapshot {
  let input = given;
  if (given !== undefined) input = checkLegOptions(machine, { input: given }, api);
  else {
    const schema = agentDefinitionOf(machine)?.inputSchema;
    const example = schema ? validate(schema, exampleOf(schema)) : undefined;
    if (example?.ok) input = example.value;
  }
  try {
    return (initialTransition(machine, input as never) as unknown as [AnyMachineSnapshot])[0];
  } catch (error) {
    throw new AgentError(
      "invalid-machine-input",
      given === undefined
        ? `${api}: the machine could not start without an input (${(error as Error)?.message ?? error}); pass { input } as the machine expects.`
        : `${api}: the machine could not start from this input (${(error as Error)?.message ?? error}).`,
      { cause: error },
    );
  }
}

function exploreInternal(machine: AnyStateMachine, options: ExplorePathsOptions, api: string, stopWhen?: (state: string) => boolean): AgentPathReport & { witness?: AgentPathTerminal } {
  const maxDepth = options.maxDepth ?? 12;
  const maxPaths = options.maxPaths ?? 100;
  const invokes = invokeIndex(machine);
  const initial = startSnapshot(machine, options.input, api);
  const reached = new Set<string>();
  const terminals: AgentPathTerminal[] = [];
  const errors = new Map<string, AgentPathError>();
  let pruned = 0;
  let hitPathCap = false;
  let witness: AgentPathTerminal | undefined;
  const first = dottedStateValue(initial.value);
  const stack: Step[] = [{ snapshot: initial, states: [first], events: [] }];
  reached.add(first);
  if (stopWhen?.(first)) return { terminals, reachedStates: [...reached], prunedByGuard: 0, hitPathCap: false, errors: [], witness: { states: [first], events: [], end: "stuck" } };
  while (stack.length) {
    if (terminals.length >= maxPaths) {
      hitPathCap = true;
      break;
    }
    const step = stack.pop()!;
    if (step.snapshot.status === "done") {
      terminals.push({ states: step.states, events: step.events, end: "done" });
      continue;
    }
    if (step.events.length >= maxDepth) {
      terminals.push({ states: step.states, events: step.events, end: "depth" });
      continue;
    }
    const nexts: Step[] = [];
    let changed = 0;
    let rejected = 0;
    const here = step.states[step.states.length - 1]!;
    for (const { event, handled } of candidateEvents(step.snapshot, options, invokes)) {
      let next: AnyMachineSnapshot;
      try {
        [next] = transition(machine, step.snapshot as never, event as never) as unknown as [AnyMachineSnapshot];
      } catch (error) {
        rejected++;
        const key = `${here}\u0000${event.type}`;
        if (!errors.has(key)) errors.set(key, { state: here, event: event.type, message: readableIds(machine, (error as Error)?.message ?? String(error)) });
        continue;
      }
      const value = dottedStateValue(next.value);
      if (next === step.snapshot || (value === here && next.context === step.snapshot.context && next.status === step.snapshot.status)) {
        if (handled) pruned++;
        continue;
      }
      changed++;
      reached.add(value);
      if (step.states.includes(value) && value !== step.states[step.states.length - 1]) continue; // simple paths only
      if (value === step.states[step.states.length - 1] && step.events.includes(event.type)) continue;
      const path: Step = { snapshot: next, states: value === step.states[step.states.length - 1] ? step.states : [...step.states, value], events: [...step.events, event.type] };
      if (stopWhen?.(value) && !witness) {
        witness = { states: path.states, events: path.events, end: next.status === "done" ? "done" : "stuck" };
        return { terminals, reachedStates: [...reached], prunedByGuard: pruned, hitPathCap, errors: [...errors.values()], witness };
      }
      nexts.push(path);
    }
    if (nexts.length === 0) terminals.push({ states: step.states, events: step.events, end: changed ? "cycle" : rejected ? "error" : "stuck" });
    stack.push(...nexts.reverse());
  }
  return { terminals, reachedStates: [...reached], prunedByGuard: pruned, hitPathCap, errors: [...errors.values()] };
}

function checkMachine(machine: AnyStateMachine, api: string): void {
  if (!machine || typeof machine !== "object" || !("root" in machine)) {
    throw new AgentError("not-an-agent-machine", `${api} needs a machine made by agent.createMachine(...).`);
  }
}

/** Enumerates paths from the initial state to terminals (final, stuck, depth cap), with caps. */
export function explorePaths(machine: AnyStateMachine, options: ExplorePathsOptions = {}): AgentPathReport {
  const callSite = captureCallSite();
  try {
    checkMachine(machine, "explorePaths");
    const { witness: _w, ...result } = exploreInternal(machine, options, "explorePaths");
    // Transitions XState rejected make the exploration's own result an error (the report says so).
    report("explore", { ...result, ...(result.errors.length ? { status: "error" } : {}) }, callSite);
    return result;
  } catch (error) {
    report("explore", { error: errorPayload(error) }, callSite);
    throw error;
  }
}

/** canReach's answer: the witness is the path that entered the target. */
export interface CanReachResult {
  reachable: boolean;
  witness?: AgentPathTerminal;
}

/** Whether some path from the initial state enters `target` (a state key or dotted path), with a witness. */
export function canReach(machine: AnyStateMachine, target: string, options: ExplorePathsOptions = {}): CanReachResult {
  const callSite = captureCallSite();
  try {
    checkMachine(machine, "canReach");
    checkStateRef(target, machineInfo(machine).states, "canReach");
    const result = exploreInternal(machine, { maxPaths: 1000, ...options }, "canReach", (state) => refMatches(target, state));
    const answer = result.witness ? { reachable: true, witness: result.witness } : { reachable: false };
    report("canReach", { target, ...answer }, callSite);
    return answer;
  } catch (error) {
    report("canReach", { target, error: errorPayload(error) }, callSite);
    throw error;
  }
}
