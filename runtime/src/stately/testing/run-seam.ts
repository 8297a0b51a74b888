// runSeam: runs the whole machine with one named request occurrence under test. Text requests are
// answered from `scripts` (queue key = the request name when scripts has that queue, else the model
// key), the seam from `candidate` when given (it still consumes its scripted slot), decisions from
// `executors.decide`. Returns the seam's output and usage, the call ledger, the state path and events
// split at the seam, and the run result.
import { captureCallSite, report, type SeamReportPayload } from "../../shared/report";
import { AgentError, markFatal } from "../errors";
import { checkTextResult } from "../execute";
import { errorPayload, jsonSafe } from "../json-safe";
import { checkLegOptions, emptyUsage, runLeg, type LegResult, type PersistedSnapshot } from "../run-engine";
import type { RunAgentResult } from "../run-agent";
import { RunTrace, type TraceEvent } from "../trace";
import type { AgentExecutorResult, AgentExecutors, AgentTextExecutor, AgentTextRequest, AgentUsage } from "../types";
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom } from "../xstate";
import { machineInfo } from "./machine-info";
import { resolveEntry, type SeamScriptEntry } from "./script-entry";

export type { SeamScriptEntry };

/** Which call is under test: the Nth (0-based) call of the request with this name. */
export interface SeamRef {
  request: string;
  occurrence?: number;
}

/** An event `respond` sends (typed loosely: a literal `type` returned from a callback would otherwise widen). */
export interface SeamEvent {
  type: string;
  [key: string]: unknown;
}

/** One idle pause, for `respond`. */
export interface SeamTurn<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The idle snapshot (persisted form). */
  snapshot: PersistedSnapshot;
  /** Its state value as a dotted path. */
  state: string;
  /** 0-based index of the pause. */
  turn: number;
  result: RunAgentResult<TMachine>;
}

export interface RunSeamOptions<TMachine extends AnyStateMachine = AnyStateMachine> {
  input?: InputFrom<TMachine>;
  /** Scripted answers per key (a request name, else a model key), consumed in order. */
  scripts: Record<string, SeamScriptEntry[]>;
  seam: SeamRef;
  /** Answers the seam instead of its script entry (which is still consumed). */
  candidate?: AgentTextExecutor;
  /** Other executors (a `decide` for machines that decide); text requests are always routed by the scripts. */
  executors?: AgentExecutors;
  /** Replay a queue's last entry once it runs dry instead of failing with seam-script-exhausted. */
  repeatLast?: boolean;
  /** Answers each idle pause with an event, or stops the run (null / undefined). */
  respond?: (turn: SeamTurn<TMachine>) => SeamEvent | null | undefined | void;
  /** Idle pauses `respond` may answer (default 12). */
  maxTurns?: number;
  maxModelCalls?: number;
  signal?: AbortSignal;
}

/** One text call of the run, in order. */
export interface SeamCall {
  name: string;
  model: string;
  /** The scripts key that routed the call (request name or model key). */
  key: string;
  source: "script" | "candidate";
  /** True for the seam call itself. */
  seam: boolean;
}

export interface RunSeamResult<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** What the seam returned (`result` of its answer); undefined when the run never reached it. */
  seamOutput: unknown;
  /** The seam answer's `usage`, when it reported one. */
  seamUsage?: AgentUsage;
  seamReached: boolean;
  calls: SeamCall[];
  /** Dotted state values in the order the run entered them; split where the seam answered. */
  path: string[];
  pathBefore: string[];
  pathAfter: string[];
  /** The root machine's transition events, split at the seam's own done / error event. */
  events: TraceEvent[];
  eventsBefore: TraceEvent[];
  eventsAfter: TraceEvent[];
  /** The run's final result (after the last `respond` turn). */
  result: RunAgentResult<TMachine>;
  status: "done" | "idle" | "error";
  /** Scripts keys whose queue no call took an entry from (a branch not taken); not an error. */
  unusedScripts: string[];
}

function checkSeamOptions(machine: AnyStateMachine, options: RunSeamOptions): void {
  if (!options || typeof options !== "object") {
    throw new AgentError("invalid-options", "runSeam needs options: runSeam(machine, { input, scripts, seam: { request } }).");
  }
  if (!options.seam || typeof options.seam.request !== "string" || options.seam.request === "") {
    throw new AgentError("invalid-options", "runSeam needs seam: { request: \"<request name>\" } naming the request under test.");
  }
  if (options.seam.occurrence !== undefined && (!Number.isInteger(options.seam.occurrence) || options.seam.occurrence < 0)) {
    throw new AgentError("invalid-options", "runSeam: seam.occurrence is a 0-based call index (0, 1, 2, ...).");
  }
  if (typeof options.scripts !== "object" || options.scripts === null) {
    throw new AgentError("invalid-options", "runSeam needs scripts: { <request name or model key>: [answers...] } (use {} when the candidate answers everything).");
  }
  for (const [key, queue] of Object.entries(options.scripts)) {
    if (!Array.isArray(queue)) {
      throw new AgentError("invalid-script-entry", `runSeam: scripts.${key} must be an array of entries, e.g. ${key}: ["answer"].`, { key });
    }
  }
  const info = machineInfo(machine);
  if (!info.complete || info.requests.some((r) => r.origin === "inline-decide" && r.kind === "text")) return;
  const text = info.requests.filter((r) => r.kind === "text");
  const names = new Set(text.map((r) => r.name!));
  const models = new Set(text.map((r) => r.model!).filter(Boolean));
  if (!names.has(options.seam.request)) {
    const decision = info.requests.find((r) => r.name === options.seam.request);
    throw new AgentError(
      "unknown-seam-request",
      decision
        ? `runSeam: "${options.seam.request}" is a decision; a seam is a text request (runSeam routes text requests only).`
        : `runSeam: the machine has no text request named "${options.seam.request}"; its requests: ${[...names].join(", ") || "(none)"}.`,
      { request: options.seam.request },
    );
  }
  for (const key of Object.keys(options.scripts)) {
    if (!names.has(key) && !models.has(key)) {
      throw new AgentError(
        "unknown-script-key",
        `runSeam: scripts.${key} matches no request name and no model key of this machine (requests: ${[...names].join(", ")}; models: ${[...models].join(", ")}).`,
        { key },
      );
    }
  }
}

/** Runs the machine with one request occurrence under test; see RunSeamOptions. */
export async function runSeam<TMachine extends AnyStateMachine>(machine: TMachine, options: RunSeamOptions<TMachine>): Promise<RunSeamResult<TMachine>> {
  const callSite = captureCallSite();
  const trace = new RunTrace();
  const calls: SeamCall[] = [];
  const state = { seamOutput: undefined as unknown, seamUsage: undefined as AgentUsage | undefined, reached: false, pathAt: 0, eventAt: 0 };
  const basePayload = (): Omit<SeamReportPayload, "status"> => ({
    request: String(options?.seam?.request ?? ""),
    occurrence: options?.seam?.occurrence ?? 0,
    seamOutput: jsonSafe(state.seamOutput),
    ...(state.seamUsage !== undefined ? { seamUsage: jsonSafe(state.seamUsage) } : {}),
    calls: calls.map(({ name, model, key, source }) => ({ name, model, key, source })),
    path: trace.path,
    pathBefore: state.reached ? trace.path.slice(0, state.pathAt) : trace.path,
    pathAfter: state.reached ? trace.path.slice(state.pathAt) : [],
    events: trace.events,
  });
  try {
    checkSeamOptions(machine, options as RunSeamOptions);
    const input = checkLegOptions(machine, { input: options.input, executors: options.executors }, "runSeam");
    const queues = new Map<string, SeamScriptEntry[]>(Object.entries(options.scripts).map(([k, v]) => [k, [...v]]));
    const used = new Set<string>();
    let seamCount = 0;
    const occurrence = options.seam.occurrence ?? 0;

    const keyOf = (request: AgentTextRequest): string => (queues.has(request.name) ? request.name : request.model);
    const take = (request: AgentTextRequest, key: string): SeamScriptEntry | undefined => {
      const queue = queues.get(key);
      if (!queue || queue.length === 0) return undefined;
      used.add(key);
      if (options.repeatLast && queue.length === 1) return queue[0];
      return queue.shift();
    };
    const hasEntry = (key: string): boolean => (queues.get(key)?.length ?? 0) > 0;

    let seamInvokeId = "";
    const route: AgentTextExecutor = async (request) => {
      const key = keyOf(request);
      const isSeam = request.name === options.seam.request && seamCount++ === occurrence;
      if (isSeam) {
        // The request starts while the transition that entered its state is still being taken; let
        // that transition reach the trace first, so the split lands after the seam's own state.
        await null;
        state.reached = true;
        state.pathAt = trace.path.length;
        state.eventAt = trace.events.length;
        seamInvokeId = request.invokeId;
      }
      const ledger = (source: SeamCall["source"]) => calls.push({ name: request.name, model: request.model, key, source, seam: isSeam });
      if (isSeam && options.candidate) {
        take(request, key); // the seam keeps the call plan aligned even when the candidate answers
        ledger("candidate");
        const answer = checkTextResult(request, await options.candidate(request));
        state.seamOutput = answer.result;
        if (answer.usage !== undefined) state.seamUsage = answer.usage;
        return answer;
      }
      if (!hasEntry(key)) {
        throw markFatal(
          new AgentError(
            "seam-script-exhausted",
            `runSeam: no scripted answer left for request "${request.name}" (model "${request.model}", scripts key "${key}"). ` +
              `Add an entry to scripts.${key}, or pass repeatLast: true to replay its last entry.`,
            { request: request.name, key },
          ),
        );
      }
      const entry = take(request, key);
      ledger("script");
      const answer: AgentExecutorResult = await resolveEntry(entry as SeamScriptEntry, request);
      if (isSeam) {
        state.seamOutput = answer.result;
        if (answer.usage !== undefined) state.seamUsage = answer.usage;
      }
      return answer;
    };

    const executors: AgentExecutors = { ...(options.executors ?? {}), generateText: route };
    const usage = emptyUsage();
    const maxTurns = options.maxTurns ?? 12;
    let leg: LegResult;
    let snapshot: PersistedSnapshot | undefined;
    let event: EventObject | undefined;
    for (let turn = 0; ; turn++) {
      leg = await runLeg(machine, {
        input,
        ...(snapshot ? { snapshot, event } : {}),
        executors,
        usage,
        ...(options.maxModelCalls !== undefined ? { maxModelCalls: options.maxModelCalls } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onTransition: trace.record,
      });
      if (leg.status === "error" && leg.fatal) throw leg.error;
      if (leg.status !== "idle" || !options.respond || turn >= maxTurns) break;
      const next = options.respond({
        snapshot: leg.snapshot,
        state: trace.path[trace.path.length - 1] ?? "",
        turn,
        result: toResult(leg) as RunAgentResult<TMachine>,
      });
      if (!next) break;
      snapshot = leg.snapshot;
      event = next as EventObject;
    }

    let splitAt = trace.events.length;
    if (state.reached) {
      splitAt = state.eventAt;
      for (let i = state.eventAt; i < trace.events.length; i++) {
        const type = trace.events[i]!.type;
        if (type === `xstate.done.actor.${seamInvokeId}` || type === `xstate.error.actor.${seamInvokeId}`) {
          splitAt = i;
          break;
        }
      }
    }
    const base = basePayload();
    const result: RunSeamResult<TMachine> = {
      seamOutput: state.seamOutput,
      ...(state.seamUsage !== undefined ? { seamUsage: state.seamUsage } : {}),
      seamReached: state.reached,
      calls,
      path: trace.path,
      pathBefore: base.pathBefore,
      pathAfter: base.pathAfter,
      events: trace.events,
      eventsBefore: trace.events.slice(0, splitAt),
      eventsAfter: trace.events.slice(splitAt),
      result: toResult(leg) as RunAgentResult<TMachine>,
      status: leg.status,
      unusedScripts: [...queues.keys()].filter((key) => !used.has(key)),
    };
    report("seam", {
      ...base,
      status: leg.status,
      ...(leg.status === "done" ? { output: jsonSafe(leg.output) } : {}),
      ...(leg.status === "error" ? { error: errorPayload(leg.error) } : {}),
    } satisfies SeamReportPayload, callSite);
    return result;
  } catch (error) {
    report("seam", { ...basePayload(), status: "error", error: errorPayload(error) } satisfies SeamReportPayload, callSite);
    throw error;
  }
}

function toResult(leg: LegResult): RunAgentResult {
  if (leg.status === "done") return { status: "done", output: leg.output as never, snapshot: leg.snapshot, usage: leg.usage };
  if (leg.status === "idle") return { status: "idle", snapshot: leg.snapshot, usage: leg.usage };
  return { status: "error", error: leg.error, snapshot: leg.snapshot, usage: leg.usage };
}

export type { AnyMachineSnapshot };
