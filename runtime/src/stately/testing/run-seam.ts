// runSeam: runs the whole machine with one named request occurrence under test. Text requests are
// answered from `scripts` (queue key = the request name when scripts has that queue, else the model
// key), the seam from `candidate` when given (it still consumes its scripted slot), decisions from
// `executors.decide`. Returns the seam's output and usage, the call ledger, the run sliced at the seam
// (`before` / `after`, each a state path and the transition events), and the run result.
import { markUnrecorded } from "../../shared/model-calls";
import { captureCallSite, report, type SeamReportPayload } from "../../shared/report";
import { AgentError, markFatal } from "../errors";
import { checkTextResult } from "../execute";
import { callExecutor } from "../model-calls";
import { errorPayload, jsonSafe } from "../json-safe";
import { reporterInstalled } from "../reporting";
import { checkLegOptions, emptyUsage, runLeg, type LegResult, type PersistedSnapshot } from "../run-engine";
import { toRunAgentResult, type RunAgentResult } from "../run-agent";
import { RunTrace } from "../trace";
import type { AgentRequestExecutorResult, AgentRequestExecutors, AgentRequestExecutor, AgentTextRequest, AgentUsage } from "../types";
import { stateMeta, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom } from "../xstate";
import { requestLabel } from "../user-names";
import { machineInfo } from "./machine-info";
import { resolveEntry, type SeamScriptEntry } from "./script-entry";
import type { RunSeamOptions, RunSeamResult, SeamCall } from "./seam-types";

function checkSeamOptions(machine: AnyStateMachine, options: RunSeamOptions): Record<string, SeamScriptEntry[]> {
  if (!options || typeof options !== "object") {
    throw new AgentError("invalid-options", "runSeam needs options: runSeam(machine, { input, scripts, seam: { request } }).");
  }
  if (!options.seam || typeof options.seam.request !== "string" || options.seam.request === "") {
    throw new AgentError("invalid-options", "runSeam needs seam: { request: \"<request name>\" } naming the request under test.");
  }
  if (options.seam.occurrence !== undefined && (!Number.isInteger(options.seam.occurrence) || options.seam.occurrence < 0)) {
    throw new AgentError("invalid-options", "runSeam: seam.occurrence is a 0-based call index (0, 1, 2, ...).");
  }
  const scripts = options.scripts ?? {};
  if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts)) {
    throw new AgentError("invalid-options", "runSeam: scripts is { <request name or model key>: [answers...] } (omit it when the candidate answers everything).");
  }
  for (const [key, queue] of Object.entries(scripts)) {
    if (!Array.isArray(queue)) {
      throw new AgentError("invalid-script-entry", `runSeam: scripts.${key} must be an array of entries, e.g. ${key}: ["answer"].`, { key });
    }
  }
  for (const name of ["candidate", "respond"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw new AgentError("invalid-options", `runSeam: ${name} must be a function.`);
    }
  }
  if (options.maxTurns !== undefined && (!Number.isInteger(options.maxTurns) || options.maxTurns < 0)) {
    throw new AgentError("invalid-options", "runSeam: maxTurns is the number of idle pauses respond may answer (0, 1, 2, ...).");
  }
  const info = machineInfo(machine);
  if (!info.complete || info.requests.some((r) => r.origin === "inline-decide" && r.kind === "text")) return scripts;
  const text = info.requests.filter((r) => r.kind === "text");
  const names = new Set(text.map((r) => r.name!));
  const models = new Set(text.map((r) => r.model!).filter(Boolean));
  // An unnamed request reads as `the unnamed request of state "titling"`, not its generated invoke id.
  const listed = [...names].map((n) => requestLabel(machine, n)).join(", ");
  if (!names.has(options.seam.request)) {
    const decision = info.requests.find((r) => r.name === options.seam.request);
    throw new AgentError(
      "unknown-seam-request",
      decision
        ? `runSeam: "${options.seam.request}" is a decision; a seam is a text request (runSeam routes text requests only).`
        : `runSeam: the machine has no text request named "${options.seam.request}"; its text requests: ${listed || "(none)"}.`,
      { request: options.seam.request },
    );
  }
  for (const key of Object.keys(scripts)) {
    if (!names.has(key) && !models.has(key)) {
      throw new AgentError(
        "unknown-script-key",
        `runSeam: scripts.${key} matches no request name and no model key of this machine (requests: ${listed}; models: ${[...models].join(", ")}).`,
        { key },
      );
    }
  }
  return scripts;
}

/** Where the run stood when the seam was called. */
interface SeamMark {
  output: unknown;
  usage: AgentUsage | undefined;
  /** -1 until the seam is called. */
  callsBefore: number;
  /** Transitions recorded when the seam was called. */
  at: number;
  invokeId: string;
}

/** Runs the machine with one request occurrence under test; see RunSeamOptions. */
export async function runSeam<TMachine extends AnyStateMachine>(machine: TMachine, options: RunSeamOptions<TMachine>): Promise<RunSeamResult<TMachine>> {
  const callSite = reporterInstalled() ? captureCallSite() : undefined;
  const trace = new RunTrace();
  const calls: SeamCall[] = [];
  const mark: SeamMark = { output: undefined, usage: undefined, callsBefore: -1, at: 0, invokeId: "" };
  try {
    const scripts = checkSeamOptions(machine, options as RunSeamOptions);
    const input = checkLegOptions(machine, { input: options.input, executors: options.executors }, "runSeam");
    const queues = new Map<string, SeamScriptEntry[]>(Object.entries(scripts).map(([k, v]) => [k, [...v]]));
    const used = new Set<string>();
    const occurrence = options.seam.occurrence ?? 0;
    let seamCount = 0;
    let callCount = 0;

    const keyOf = (request: AgentTextRequest): string => (queues.has(request.name) ? request.name : request.model);
    const take = (key: string): SeamScriptEntry | undefined => {
      const queue = queues.get(key);
      if (!queue || queue.length === 0) return undefined;
      used.add(key);
      if (options.repeatLast && queue.length === 1) return queue[0];
      return queue.shift();
    };

    // The scripts answer here, not a model: the harness records and replays only the candidate's calls.
    const route: AgentRequestExecutor = async (request) => {
      const key = keyOf(request);
      const index = callCount++;
      const isSeam = request.name === options.seam.request && seamCount++ === occurrence;
      if (isSeam) {
        // The request starts while the transition that entered its state is still being taken; let
        // that transition reach the trace first, so the split lands after the seam's own state.
        await null;
        mark.callsBefore = index;
        mark.at = trace.values.length;
        mark.invokeId = request.invokeId;
      }
      const ledger = (source: SeamCall["source"]) => calls.push({ name: request.name, model: request.model, key, source, seam: isSeam });
      if (isSeam && options.candidate) {
        take(key); // the seam keeps the call plan aligned even when the candidate answers
        ledger("candidate");
        const answer = checkTextResult(request, await callExecutor(request, { generateText: options.candidate }, "generateText", callSite));
        mark.output = answer.result;
        mark.usage = answer.usage;
        return answer;
      }
      const entry = take(key);
      if (entry === undefined) {
        throw markFatal(
          new AgentError(
            "seam-script-exhausted",
            `runSeam: no scripted answer left for request '${request.name}' (model '${request.model}'): scripts.${key} is empty. ` +
              `Add an entry to scripts.${key}, or pass repeatLast: true to replay its last entry.`,
            { request: request.name, key },
          ),
        );
      }
      ledger("script");
      const answer: AgentRequestExecutorResult = await resolveEntry(entry, request);
      if (isSeam) {
        mark.output = answer.result;
        mark.usage = answer.usage;
      }
      return answer;
    };

    markUnrecorded(route);
    const executors: AgentRequestExecutors = { ...(options.executors ?? {}), generateText: route };
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
        visited: trace.visited,
        ...(callSite ? { callSite } : {}),
      });
      if (leg.status === "error" && leg.fatal) throw leg.error;
      if (leg.status !== "idle" || !options.respond || turn >= maxTurns) break;
      const live = leg.live as AnyMachineSnapshot;
      const next = options.respond({
        snapshot: live as SnapshotFrom<TMachine>,
        state: live.value,
        meta: stateMeta(live),
        turn,
        result: toRunAgentResult(leg, machine, trace, input) as RunAgentResult<TMachine>,
      });
      if (!next) break;
      snapshot = leg.snapshot;
      event = next as EventObject;
    }

    const split = splitAtSeam(trace, mark);
    const result: RunSeamResult<TMachine> = {
      result: toRunAgentResult(leg, machine, trace, input) as RunAgentResult<TMachine>,
      seamOutput: mark.output,
      ...(mark.usage !== undefined ? { seamUsage: mark.usage } : {}),
      callsBeforeSeam: mark.callsBefore,
      calls,
      before: { statePath: trace.values.slice(0, split.state), events: trace.rawEvents.slice(0, split.event) },
      after: { statePath: trace.values.slice(split.state), events: trace.rawEvents.slice(split.event) },
      unusedScripts: [...queues.keys()].filter((key) => !used.has(key)),
    };
    if (callSite) {
      report("seam", {
        ...seamPayload(options, trace, mark, calls),
        status: leg.status,
        ...(leg.status === "done" ? { output: jsonSafe(leg.output) } : {}),
        ...(leg.status === "error" ? { error: errorPayload(leg.error) } : {}),
      } satisfies SeamReportPayload, callSite);
    }
    return result;
  } catch (error) {
    if (callSite) report("seam", { ...seamPayload(options, trace, mark, calls), status: "error", error: errorPayload(error) } satisfies SeamReportPayload, callSite);
    throw error;
  }
}

/** Where the run splits: states at the seam's call; events at the seam's own done / error event. */
function splitAtSeam(trace: RunTrace, mark: SeamMark): { state: number; event: number } {
  const end = trace.values.length;
  if (mark.callsBefore < 0) return { state: end, event: end };
  for (let i = mark.at; i < trace.rawEvents.length; i++) {
    if (completes(trace.rawEvents[i]!, mark.invokeId)) return { state: mark.at, event: i };
  }
  return { state: mark.at, event: mark.at };
}

/** Is this the done / error event of the invoke with this id? (`xstate.done.actor` + `actorId`, or the id as a suffix) */
function completes(event: EventObject, invokeId: string): boolean {
  const { type, actorId } = event as EventObject & { actorId?: unknown };
  if (type === "xstate.done.actor" || type === "xstate.error.actor") return actorId === invokeId;
  return type === `xstate.done.actor.${invokeId}` || type === `xstate.error.actor.${invokeId}`;
}

/** The report's view of a seam run: state values as dotted paths, events JSON-safe. */
function seamPayload(options: RunSeamOptions<AnyStateMachine> | undefined, trace: RunTrace, mark: SeamMark, calls: SeamCall[]): Omit<SeamReportPayload, "status"> {
  const split = splitAtSeam(trace, mark);
  return {
    request: String(options?.seam?.request ?? ""),
    occurrence: options?.seam?.occurrence ?? 0,
    seamOutput: jsonSafe(mark.output),
    ...(mark.usage !== undefined ? { seamUsage: jsonSafe(mark.usage) } : {}),
    callsBeforeSeam: mark.callsBefore,
    calls: calls.map(({ name, model, key, source, seam }) => ({ name, model, key, source, seam })),
    before: { statePath: trace.dotted(0, split.state), events: trace.reportEvents(0, split.event) },
    after: { statePath: trace.dotted(split.state), events: trace.reportEvents(split.event, trace.rawEvents.length) },
    ...(trace.visited ? { visited: trace.visited.report() } : {}),
  };
}
