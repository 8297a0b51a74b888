// simulateAgent: runs the machine with scripted answers keyed by invoke src (the request name for
// requests; the src key for other actors), delivering scripted external events at each idle pause.
import { markUnrecorded } from "../../shared/model-calls";
import { captureCallSite, report } from "../../shared/report";
import { AgentError, markFatal } from "../errors";
import { agentPayload } from "../run-agent";
import { checkLegOptions, emptyUsage, runLeg, type LegResult, type PersistedSnapshot } from "../run-engine";
import { RunTrace } from "../trace";
import type { AgentRequestExecutors } from "../types";
import { createAsyncLogic, type AnyStateMachine, type EventObject, type InputFrom } from "../xstate";
import { resolveEntry, type SeamScriptEntry } from "./script-entry";

export interface SimulationScript {
  /** Text answers by request name (entries as in runSeam scripts). */
  text?: Record<string, SeamScriptEntry[]>;
  /** Chosen events by decision name. */
  decisions?: Record<string, ScriptedEvent[]>;
  /** Outputs of other invoked actors by src key. */
  invokes?: Record<string, unknown[]>;
  /** Errors by request name or src key; an entry here is used before any answer for that key. */
  errors?: Record<string, unknown[]>;
  /** External events delivered one per idle pause, in order. */
  events?: ScriptedEvent[];
}

/** An event with its payload. */
export interface ScriptedEvent {
  type: string;
  [key: string]: unknown;
}

export interface SimulateAgentOptions<TMachine extends AnyStateMachine = AnyStateMachine> {
  input?: InputFrom<TMachine>;
  script: SimulationScript;
  /** Most transitions before the simulation stops as exhausted (default 100). */
  maxSteps?: number;
}

/** One transition of a simulation: the event taken and the state (dotted path) it led to. */
export interface SimulationTrailEntry {
  event: string;
  state: string;
}

export interface SimulateAgentResult {
  /** done: final state; idle: waiting and no scripted event left; exhausted: a call had no scripted answer, or maxSteps. */
  status: "done" | "idle" | "exhausted";
  snapshot: PersistedSnapshot;
  /** Each transition: the event taken and the state it led to. */
  trail: SimulationTrailEntry[];
  /** Why the simulation stopped when exhausted, or the run error. */
  error?: unknown;
}


/** Runs the machine with scripted answers per src; see SimulationScript. */
export async function simulateAgent<TMachine extends AnyStateMachine>(machine: TMachine, options: SimulateAgentOptions<TMachine>): Promise<SimulateAgentResult> {
  const callSite = captureCallSite();
  const trace = new RunTrace();
  try {
    if (!options || typeof options.script !== "object" || options.script === null) {
      throw new AgentError("invalid-options", "simulateAgent needs { script: { text?, decisions?, invokes?, errors?, events? } }.");
    }
    const script = options.script;
    const queues = {
      text: new Map(Object.entries(script.text ?? {}).map(([k, v]) => [k, [...v]])),
      decisions: new Map(Object.entries(script.decisions ?? {}).map(([k, v]) => [k, [...v]])),
      invokes: new Map(Object.entries(script.invokes ?? {}).map(([k, v]) => [k, [...v]])),
      errors: new Map(Object.entries(script.errors ?? {}).map(([k, v]) => [k, [...v]])),
    };
    const events = [...(script.events ?? [])];
    const missing = (kind: string, key: string) =>
      markFatal(new AgentError("invalid-options", `simulateAgent: no scripted ${kind} left for "${key}".`, { request: key }));
    const takeError = (key: string): unknown => {
      const queue = queues.errors.get(key);
      return queue && queue.length ? queue.shift() : undefined;
    };
    // Scripted answers are not model calls: the harness neither records nor replays them.
    const executors: AgentRequestExecutors = {
      generateText: async (request) => {
        const error = takeError(request.name);
        if (error !== undefined) throw error;
        const queue = queues.text.get(request.name);
        if (!queue || !queue.length) throw missing("text answer", request.name);
        return resolveEntry(queue.shift() as SeamScriptEntry, request);
      },
      decide: async (request) => {
        const error = takeError(request.name);
        if (error !== undefined) throw error;
        const queue = queues.decisions.get(request.name);
        if (!queue || !queue.length) throw missing("decision", request.name);
        return { event: queue.shift()! as EventObject };
      },
    };
    markUnrecorded(executors.generateText!);
    markUnrecorded(executors.decide!);
    // Other actors named in the script are replaced by scripted ones.
    const replaced: Record<string, unknown> = {};
    for (const key of new Set([...queues.invokes.keys(), ...queues.errors.keys()])) {
      replaced[key] = createAsyncLogic({
        run: async () => {
          const error = takeError(key);
          if (error !== undefined) throw error;
          const queue = queues.invokes.get(key);
          if (!queue || !queue.length) throw missing("invoke output", key);
          return queue.shift();
        },
      });
    }
    const sources = (machine as unknown as { sources?: { actors?: Record<string, unknown> } }).sources?.actors ?? {};
    const actors = Object.fromEntries(Object.entries(replaced).filter(([key]) => key in sources && !queues.text.has(key)));
    const target = Object.keys(actors).length ? ((machine as unknown as { provide(i: unknown): AnyStateMachine }).provide({ actors }) as AnyStateMachine) : machine;
    const input = checkLegOptions(machine, { input: options.input }, "simulateAgent");
    const maxSteps = options.maxSteps ?? 100;
    const usage = emptyUsage();
    let leg: LegResult;
    let snapshot: PersistedSnapshot | undefined;
    let event: EventObject | undefined;
    let status: SimulateAgentResult["status"];
    for (;;) {
      leg = await runLeg(target, { input, ...(snapshot ? { snapshot, event } : {}), executors, usage, maxModelCalls: maxSteps, onTransition: trace.record, visited: trace.visited });
      if (trace.rawEvents.length > maxSteps) { status = "exhausted"; break; }
      if (leg.status === "done") { status = "done"; break; }
      if (leg.status === "error") { status = "exhausted"; break; }
      const next = events.shift();
      if (!next) { status = "idle"; break; }
      snapshot = leg.snapshot;
      event = next as EventObject;
    }
    const states = trace.dotted();
    const trail = trace.rawEvents.map((e, i) => ({ event: e.type, state: states[i] ?? "" }));
    const result: SimulateAgentResult = { status, snapshot: leg.snapshot, trail, ...(leg.status === "error" ? { error: leg.error } : {}) };
    report("simulate", { ...agentPayload({ status, ...(leg.status === "done" ? { output: leg.output } : {}), ...(leg.status === "error" ? { error: leg.error } : {}) } as never, trace), status }, callSite);
    return result;
  } catch (error) {
    report("simulate", agentPayload({ status: "error", error }, trace), callSite);
    throw error;
  }
}

