// explorePaths / canReach: walk the machine artifact with XState's pure transition function. Events
// tried in each state: every event type the active states handle (payload {}), the done event of each
// invoked request (with a sample answer) or actor (with `invokes[src]`), and error events for invokes
// listed in `errors`. A listed event that changes nothing (a guard said no, or the transition function
// returned nothing / threw on the empty payload) counts in `prunedByGuard`.
import { captureCallSite, report } from "../../shared/report";
import { AgentError } from "../errors";
import { errorPayload } from "../json-safe";
import { checkLegOptions } from "../run-engine";
import { requestSpecOf } from "../request-spec";
import { validate } from "../schema";
import { agentDefinitionOf } from "../setup-agent";
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
  /** done: a final state; stuck: no event changes anything; depth: maxDepth reached; cycle: only revisits left. */
  end: "done" | "stuck" | "depth" | "cycle";
}

export interface AgentPathReport {
  terminals: AgentPathTerminal[];
  reachedStates: string[];
  prunedByGuard: number;
  hitPathCap: boolean;
}

interface Step {
  snapshot: AnyMachineSnapshot;
  states: string[];
  events: string[];
}

function invokeIndex(machine: AnyStateMachine): Map<string, { src: string; name: string | undefined; logic: unknown }> {
  const index = new Map<string, { src: string; name: string | undefined; logic: unknown }>();
  const walk = (node: StateNodeView): void => {
    for (const inv of node.invokes) {
      const spec = requestSpecOf(inv.logic);
      index.set(inv.id, { src: inv.src, name: spec && !spec.inline ? spec.name ?? inv.id : undefined, logic: inv.logic });
    }
    node.children.forEach(walk);
  };
  walk(stateTree(machine));
  return index;
}

function candidateEvents(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, options: ExplorePathsOptions, invokes: ReturnType<typeof invokeIndex>): EventObject[] {
  const events: EventObject[] = acceptedEventTypes(snapshot).map((type) => ({ type }));
  for (const id of Object.keys(snapshot.children ?? {})) {
    const inv = invokes.get(id);
    if (!inv) continue;
    const spec = requestSpecOf(inv.logic);
    const key = inv.name ?? inv.src;
    if (spec?.kind === "text") {
      const answer = options.text && key in options.text ? options.text[key] : spec.outputSchema ? exampleOf(spec.outputSchema) : "example";
      events.push({ type: `xstate.done.actor.${id}`, output: { result: answer, messages: [] } } as EventObject);
    } else if (!spec) {
      events.push({ type: `xstate.done.actor.${id}`, output: options.invokes?.[inv.src] } as EventObject);
    }
    const errors = options.errors;
    if (errors === true || (errors && (key in errors || inv.src in errors))) {
      const error = errors === true ? new Error("explored error") : errors[key] ?? errors[inv.src];
      events.push({ type: `xstate.error.actor.${id}`, error } as EventObject);
    }
  }
  void machine;
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
  let pruned = 0;
  let hitPathCap = false;
  let witness: AgentPathTerminal | undefined;
  const first = dottedStateValue(initial.value);
  const stack: Step[] = [{ snapshot: initial, states: [first], events: [] }];
  reached.add(first);
  if (stopWhen?.(first)) return { terminals, reachedStates: [...reached], prunedByGuard: 0, hitPathCap: false, witness: { states: [first], events: [], end: "stuck" } };
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
    for (const event of candidateEvents(machine, step.snapshot, options, invokes)) {
      let next: AnyMachineSnapshot;
      try {
        [next] = transition(machine, step.snapshot as never, event as never) as unknown as [AnyMachineSnapshot];
      } catch {
        pruned++;
        continue;
      }
      const value = dottedStateValue(next.value);
      if (next === step.snapshot || (value === step.states[step.states.length - 1] && next.context === step.snapshot.context && next.status === step.snapshot.status)) {
        pruned++;
        continue;
      }
      changed++;
      reached.add(value);
      if (step.states.includes(value) && value !== step.states[step.states.length - 1]) continue; // simple paths only
      if (value === step.states[step.states.length - 1] && step.events.includes(event.type)) continue;
      const path: Step = { snapshot: next, states: value === step.states[step.states.length - 1] ? step.states : [...step.states, value], events: [...step.events, event.type] };
      if (stopWhen?.(value) && !witness) {
        witness = { states: path.states, events: path.events, end: next.status === "done" ? "done" : "stuck" };
        return { terminals, reachedStates: [...reached], prunedByGuard: pruned, hitPathCap, witness };
      }
      nexts.push(path);
    }
    if (nexts.length === 0) terminals.push({ states: step.states, events: step.events, end: changed ? "cycle" : "stuck" });
    stack.push(...nexts.reverse());
  }
  return { terminals, reachedStates: [...reached], prunedByGuard: pruned, hitPathCap };
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
    report("explore", { ...result }, callSite);
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
