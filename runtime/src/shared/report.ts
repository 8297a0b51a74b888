// The one seam between the runtime and the harness. The runtime announces each result a user's test
// produced (a runSeam run, a runAgent run, a turn, an explorePaths / canReach answer); when the file runs
// under the harness, the harness child has installed a reporter under this global symbol and turns each
// announcement into an event with the user's call site. Outside the harness this is a no-op.
// The payload types are part of the libraries' generated declarations, so they are restated, not imported,
// in the wire's copy (shared/protocol/reports.ts); test/shared/report-types.test.ts keeps the two equal.

export type ReportKind = "seam" | "agent" | "turn" | "simulate" | "explore" | "canReach" | "trajectory" | "request";

/** One side of a runSeam run, as its result's `before` / `after`: the state after each transition (as a
 *  dotted path; parallel regions joined by ",") and the transition events (type plus a short JSON of the rest). */
export interface SeamSliceReport {
  statePath: string[];
  events: Array<{ type: string; data?: unknown }>;
}

/** What one stately run visited (agent coverage; only under the harness). State paths are dotted from the
 *  root ("review.editing"); `event` is the transition's key as the config writes it ("SUBMIT", "always",
 *  "done", "error", "after 1000", "choice", "history"); `source` "" is the machine's root. A transition
 *  written as a function picks its target when taken: it is `inferred`, its `targets` are the states that
 *  macrostep entered (coverage keeps those the analysis says it can go to). */
export interface MachineVisitedReport {
  /** The machine that ran: its id (`"(machine)"` unless the config sets one) and every state path it has. */
  machine: { id: string; states: string[] };
  /** Each state node entered (ancestors and transient states included), once, in first-entry order. */
  states: string[];
  transitions: Array<{ source: string; event: string; targets: string[]; inferred?: true }>;
  /** Names of the requests invoked (each executor call's request name), once each. */
  requests: string[];
}

/** Which way a run left a falai step: `then` (also the fall-through to the next step, and a timed wait's
 *  timer), `else` (an if step's else, its default "end" included; a wait's reply or missing event), `onFail`
 *  (a do step's failure), or `branch` with its index in the step's `branches`. */
export type FlowExitKind = "then" | "else" | "onFail" | "branch";

/** What one turn visited (agent coverage; only under the harness). */
export interface FlowVisitedReport {
  /** Flows a run of which started this turn (by a trigger, `start`, or a `{ flow }` chain), once each. */
  flows: string[];
  /** Each step entered, once. */
  steps: Array<{ flow: string; step: string }>;
  /** Each way taken out of a step, once. */
  exits: Array<{ flow: string; step: string; exit: FlowExitKind; branch?: number }>;
  /** Fields a model call gave a value that was written to the session, once each. */
  fields: string[];
}

/** runSeam (kind "seam"). Plain JSON: values the user passed or the model returned, as is. */
export interface SeamReportPayload {
  request: string;
  occurrence: number;
  seamOutput: unknown;
  seamUsage?: unknown;
  /** Text calls before the seam's, or -1 when the run never reached it. */
  callsBeforeSeam: number;
  calls: Array<{ name: string; model?: string; key: string; source: "script" | "candidate" | "executor"; seam: boolean }>;
  /** The run split at the seam: states at the seam's call, events at its own completion. */
  before: SeamSliceReport;
  after: SeamSliceReport;
  status: "done" | "idle" | "error";
  output?: unknown;
  /** `raw`: XState's own message, when `message` says it in the user's names. */
  error?: { message: string; code?: string; request?: string; key?: string; raw?: string };
  visited?: MachineVisitedReport;
}

/** runAgent (kind "agent") and simulateAgent (kind "simulate"). */
export interface AgentRunReportPayload {
  status: string;
  output?: unknown;
  error?: { message: string; code?: string; raw?: string };
  usage?: unknown;
  path: string[];
  events: Array<{ type: string; data?: unknown }>;
  visited?: MachineVisitedReport;
}

/** agent.turn / agent.turnStream (kind "turn"). */
export interface TurnReportPayload {
  flowIds: string[];
  input: unknown;
  llmCalls: number;
  changed: boolean;
  messages: unknown[];
  outcomes: unknown[];
  schedule: unknown[];
  started: unknown[];
  /** Runs that ended this turn: `{ id, flowId, stepId, reason }`. */
  ended: unknown[];
  /** Triggers that matched but started nothing: `{ flowId, anchor, triggerKey, code, message }`. */
  skipped: unknown[];
  session: { id: string; version?: number; data: unknown; runs: unknown[] };
  /** The agent clock's time when the turn ended (ISO). */
  now: string;
  visited?: FlowVisitedReport;
}

/** explorePaths (kind "explore"), canReach (kind "canReach"), matchesTrajectory (kind "trajectory"). */
export type VerificationReportPayload = Record<string, unknown>;

/** The payload each kind of report carries. */
export interface ReportPayloads {
  seam: SeamReportPayload;
  agent: AgentRunReportPayload;
  simulate: AgentRunReportPayload;
  turn: TurnReportPayload;
  explore: VerificationReportPayload;
  canReach: VerificationReportPayload;
  trajectory: VerificationReportPayload;
  request: VerificationReportPayload;
}

export interface RuntimeReport {
  kind: ReportKind;
  /** A JSON-safe summary of the result (the harness serialises it as is). */
  payload: unknown;
  /** An Error created synchronously when the user's call entered the runtime: its stack holds the call site. */
  callSite: Error;
}

export type Reporter = (report: RuntimeReport) => void;

export const REPORTER_KEY = Symbol.for("agent-lens.reporter");

/** Capture at the top of a public API function, before any await, so the user's frame is on the stack. */
export function captureCallSite(): Error {
  return new Error("agent-lens call site");
}

export function report<K extends ReportKind>(kind: K, payload: ReportPayloads[K], callSite: Error): void {
  const reporter = (globalThis as Record<symbol, unknown>)[REPORTER_KEY];
  if (typeof reporter !== "function") return;
  try {
    (reporter as Reporter)({ kind, payload, callSite });
  } catch {
    // A reporter failure must never change what the user's code sees.
  }
}
