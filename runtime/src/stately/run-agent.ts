// runAgent: runs the machine with executors until it is done, idle (waiting for an event) or errored.
// Model failures never reject: they are actor errors (onError routes them) or settle `error`.
import { captureCallSite, report, type AgentRunReportPayload } from "../shared/report";
import { AgentError } from "./errors";
import { errorPayload, jsonSafe } from "./json-safe";
import { checkLegOptions, runLeg, type PersistedSnapshot } from "./run-engine";
import { RunTrace } from "./trace";
import type { AgentExecutors, AgentRunUsage } from "./types";
import type { AnyStateMachine, EventFromLogic, EventObject, InputFrom, OutputFrom } from "./xstate";

type MachineInput<M extends AnyStateMachine> = InputFrom<M>;
type MachineOutput<M extends AnyStateMachine> = OutputFrom<M>;
type MachineEvent<M extends AnyStateMachine> = EventFromLogic<M>;

export interface RunAgentOptions<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The machine input (validated against setupAgent({ input })). Ignored when resuming from a snapshot. */
  input?: MachineInput<TMachine>;
  executors: AgentExecutors;
  /** Resume from the snapshot of an earlier idle result... */
  snapshot?: PersistedSnapshot;
  /** ...and deliver this event to it. */
  event?: MachineEvent<TMachine>;
  signal?: AbortSignal;
  /** Ends the run with `max-model-calls-exceeded` before the call that would exceed it. */
  maxModelCalls?: number;
}

export type RunAgentResult<TMachine extends AnyStateMachine = AnyStateMachine> =
  | { status: "done"; output: MachineOutput<TMachine>; snapshot: PersistedSnapshot; usage: AgentRunUsage }
  | { status: "idle"; snapshot: PersistedSnapshot; usage: AgentRunUsage }
  | { status: "error"; error: unknown; snapshot: PersistedSnapshot; usage: AgentRunUsage };

/**
 * Runs an agent machine with executors. Resolves `done` (with the output), `idle` (waiting for an
 * external event: resume with `{ snapshot, event }`) or `error`; rejects only for caller mistakes
 * (invalid input, an event the idle state does not accept, a snapshot from elsewhere).
 */
export async function runAgent<TMachine extends AnyStateMachine>(machine: TMachine, options: RunAgentOptions<TMachine>): Promise<RunAgentResult<TMachine>> {
  const callSite = captureCallSite();
  const trace = new RunTrace();
  try {
    if (!options || typeof options !== "object" || !options.executors) {
      throw new AgentError("missing-executors", "runAgent needs executors: runAgent(machine, { input, executors: { generateText } }).");
    }
    const input = checkLegOptions(machine, options, "runAgent");
    const leg = await runLeg(machine, {
      input,
      ...(options.snapshot !== undefined ? { snapshot: options.snapshot } : {}),
      ...(options.event !== undefined ? { event: options.event as EventObject } : {}),
      executors: options.executors,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxModelCalls !== undefined ? { maxModelCalls: options.maxModelCalls } : {}),
      onTransition: trace.record,
    });
    const result = (leg.status === "done"
      ? { status: "done", output: leg.output, snapshot: leg.snapshot, usage: leg.usage }
      : leg.status === "idle"
        ? { status: "idle", snapshot: leg.snapshot, usage: leg.usage }
        : { status: "error", error: leg.error, snapshot: leg.snapshot, usage: leg.usage }) as RunAgentResult<TMachine>;
    report("agent", agentPayload(result, trace), callSite);
    return result;
  } catch (error) {
    const payload: AgentRunReportPayload = { status: "error", error: errorPayload(error), path: trace.path, events: trace.events };
    report("agent", payload, callSite);
    throw error;
  }
}

export function agentPayload(result: { status: string; output?: unknown; error?: unknown; usage?: unknown }, trace: RunTrace): AgentRunReportPayload {
  return {
    status: result.status,
    ...(result.status === "done" ? { output: jsonSafe(result.output) } : {}),
    ...(result.status === "error" ? { error: errorPayload(result.error) } : {}),
    ...(result.usage ? { usage: jsonSafe(result.usage) } : {}),
    path: trace.path,
    events: trace.events,
  };
}
