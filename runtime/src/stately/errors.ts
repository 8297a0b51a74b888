// Every failure the runtime reports on purpose is an AgentError with a stable `code` and a message that
// says what to do next. Codes are part of the public contract (the harness and the editor show them).

export type AgentErrorCode =
  | "invalid-machine-input"
  | "invalid-machine-output"
  | "invalid-request-input"
  | "invalid-request-output"
  | "invalid-executor-result"
  | "invalid-decision"
  | "decision-not-accepted"
  | "decision-exhausted"
  | "missing-executor"
  | "missing-executors"
  | "not-an-agent-machine"
  | "unknown-request"
  | "invalid-prompt"
  | "illegal-resume-event"
  | "invalid-snapshot"
  | "max-model-calls-exceeded"
  | "aborted"
  | "unknown-model"
  | "model-output-not-json"
  | "no-decision"
  | "seam-script-exhausted"
  | "unknown-seam-request"
  | "unknown-script-key"
  | "invalid-script-entry"
  | "unknown-state"
  | "empty-trajectory"
  | "invalid-trajectory"
  | "no-scripted-answer"
  | "replay-drift"
  | "lint-failed"
  | "invalid-options";

export class AgentError extends Error {
  readonly code: AgentErrorCode;
  /** The request the error is about, when there is one. */
  readonly request?: string;
  /** The scripts key involved (runSeam), when there is one. */
  readonly key?: string;
  override readonly cause?: unknown;

  constructor(code: AgentErrorCode, message: string, details: { request?: string; key?: string; cause?: unknown } = {}) {
    super(message);
    this.name = "AgentError";
    this.code = code;
    if (details.request !== undefined) this.request = details.request;
    if (details.key !== undefined) this.key = details.key;
    if (details.cause !== undefined) this.cause = details.cause;
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/** Errors that end a whole run at once instead of reaching the machine as an actor error. */
const FATAL = Symbol.for("statelyai-agent.fatal");

export function markFatal<T extends Error>(error: T): T {
  (error as unknown as Record<symbol, boolean>)[FATAL] = true;
  return error;
}

export function isFatal(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[FATAL] === true;
}
