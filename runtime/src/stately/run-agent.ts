// runAgent: runs the machine with executors until it is done, idle (waiting for an event) or errored.
// Model failures never reject: they are actor errors (onError routes them) or settle `error`.
import { captureCallSite, report, type AgentRunReportPayload } from "../shared/report";
import { AgentError } from "./errors";
import { errorPayload, jsonSafe } from "./json-safe";
import { reporterInstalled } from "./reporting";
import { checkPriorLog, withLazyLog, type AgentLogEntry } from "./event-log";
import { checkLegOptions, runLeg, type LegResult, type PersistedSnapshot } from "./run-engine";
import type { AgentIdlePredicate } from "./setup-agent-types";
import { RunTrace } from "./trace";
import type { AgentRequestExecutors, AgentRunUsage } from "./types";
import type { AnyStateMachine, EventFromLogic, EventObject, InputFrom, OutputFrom, SnapshotFrom } from "./xstate";

type MachineInput<M extends AnyStateMachine> = InputFrom<M>;
type MachineOutput<M extends AnyStateMachine> = OutputFrom<M>;
type MachineEvent<M extends AnyStateMachine> = EventFromLogic<M>;

export interface RunAgentOptions<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The machine input (validated against setupAgent({ input })). Ignored when resuming from a snapshot. */
  input?: MachineInput<TMachine>;
  executors: AgentRequestExecutors;
  /** Resume from the snapshot of an earlier idle result... */
  snapshot?: PersistedSnapshot;
  /** ...and deliver this event to it. */
  event?: MachineEvent<TMachine>;
  signal?: AbortSignal;
  /** Ends the run with `max-model-calls-exceeded` before the call that would exceed it. */
  maxModelCalls?: number;
  /** Called after every transition of the machine with the new snapshot and the event that caused it. */
  onTransition?: (snapshot: SnapshotFrom<TMachine>, event: EventObject) => void;
  /** Which snapshots are intentional waits for an external event (overrides setupAgent({ isIdle })). */
  isIdle?: AgentIdlePredicate;
  /** When resuming: the earlier result's `events`, so this result's log is the whole run's. */
  events?: AgentLogEntry[];
}

/** What every result carries besides its status. */
interface RunAgentResultBase {
  snapshot: PersistedSnapshot;
  usage: AgentRunUsage;
  /** The run's event log: one JSON-safe entry per transition, starting with `@agent.init`. */
  events: AgentLogEntry[];
}

export type RunAgentResult<TMachine extends AnyStateMachine = AnyStateMachine> =
  | ({ status: "done"; output: MachineOutput<TMachine> } & RunAgentResultBase)
  | ({ status: "idle" } & RunAgentResultBase)
  | ({ status: "error"; error: unknown } & RunAgentResultBase);

/**
 * Runs an agent machine with executors. Resolves `done` (with the output), `idle` (waiting for an
 * external event: resume with `{ snapshot, event }`) or `error`; rejects only for caller mistakes
 * (invalid input, an event the idle state does not accept, a snapshot from elsewhere).
 */
export async function runAgent<TMachine extends AnyStateMachine>(machine: TMachine, options: RunAgentOptions<TMachine>): Promise<RunAgentResult<TMachine>> {
  const callSite = reporterInstalled() ? captureCallSite() : undefined;
  const trace = new RunTrace();
  try {
    if (!options || typeof options !== "object" || !options.executors) {
      throw new AgentError("missing-executors", "runAgent needs executors: runAgent(machine, { input, executors: { generateText } }).");
    }
    const input = checkLegOptions(machine, options, "runAgent");
    if (options.onTransition !== undefined && typeof options.onTransition !== "function") {
      throw new AgentError("invalid-options", "runAgent: onTransition must be a function (snapshot, event) => void.");
    }
    const prior = checkPriorLog(options.events, "runAgent");
    const onTransition = options.onTransition;
    const leg = await runLeg(machine, {
      input,
      ...(options.snapshot !== undefined ? { snapshot: options.snapshot } : {}),
      ...(options.event !== undefined ? { event: options.event as EventObject } : {}),
      executors: options.executors,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxModelCalls !== undefined ? { maxModelCalls: options.maxModelCalls } : {}),
      ...(options.isIdle ? { isIdle: options.isIdle } : {}),
      ...(callSite ? { callSite } : {}),
      onTransition: onTransition
        ? (snapshot, event) => {
            trace.record(snapshot, event);
            onTransition(snapshot as SnapshotFrom<TMachine>, event);
          }
        : trace.record,
      visited: trace.visited,
    });
    const result = toRunAgentResult(leg, machine, trace, input, prior) as RunAgentResult<TMachine>;
    if (callSite) report("agent", agentPayload(result, trace), callSite);
    return result;
  } catch (error) {
    if (callSite) {
      const payload: AgentRunReportPayload = { status: "error", error: errorPayload(error), path: trace.path, events: trace.events, ...(trace.visited ? { visited: trace.visited.report() } : {}) };
      report("agent", payload, callSite);
    }
    throw error;
  }
}

/** A leg's outcome as the public result; its `events` log covers what `trace` recorded so far. */
export function toRunAgentResult(leg: LegResult, machine: AnyStateMachine, trace: RunTrace, input: unknown, prior: AgentLogEntry[] = []): RunAgentResult {
  const base = { snapshot: leg.snapshot, usage: leg.usage };
  const result =
    leg.status === "done"
      ? { status: "done" as const, output: leg.output as never, ...base }
      : leg.status === "idle"
        ? { status: "idle" as const, ...base }
        : { status: "error" as const, error: leg.error, ...base };
  return withLazyLog(result, machine, trace, input, prior);
}

export function agentPayload(result: { status: string; output?: unknown; error?: unknown; usage?: unknown }, trace: RunTrace): AgentRunReportPayload {
  return {
    status: result.status,
    ...(result.status === "done" ? { output: jsonSafe(result.output) } : {}),
    ...(result.status === "error" ? { error: errorPayload(result.error) } : {}),
    ...(result.usage ? { usage: jsonSafe(result.usage) } : {}),
    path: trace.path,
    events: trace.events,
    ...(trace.visited ? { visited: trace.visited.report() } : {}),
  };
}
