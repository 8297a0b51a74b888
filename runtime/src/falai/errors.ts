// The errors `@falai/agent` throws. Messages follow one shape: `[Class] what: why. how to fix.`
// Provider failures in the speak call never surface as errors (the step waits or ends instead).

export type FlowConfigurationErrorCode =
  | "bad-field-type"
  | "bad-duration"
  | "unknown-field"
  | "unknown-step"
  | "duplicate-step"
  | "duplicate-flow"
  | "unknown-tool"
  | "unknown-action"
  | "unknown-event"
  | "unknown-condition"
  | "bad-parameter"
  | "bad-trigger"
  | "bad-option"
  | "unknown-key";

/** A field, flow, step, trigger, action, tool or agent option the runtime cannot run as written. */
export class FlowConfigurationError extends Error {
  readonly code: FlowConfigurationErrorCode;
  constructor(code: FlowConfigurationErrorCode, where: string, what: string, fix: string) {
    super(`[FlowConfigurationError] ${where}: ${what}. ${fix}`);
    this.name = "FlowConfigurationError";
    this.code = code;
  }
}

export type TurnInputErrorCode = "missing-session-id" | "no-input-kind" | "several-input-kinds" | "bad-input" | "unknown-key" | "unknown-event" | "session-mismatch";

/** `agent.turn()` was called with an input it cannot run (thrown before any call is spent). */
export class TurnInputError extends Error {
  readonly code: TurnInputErrorCode;
  constructor(code: TurnInputErrorCode, what: string, fix: string) {
    super(`[TurnInputError] turn(): ${what}. ${fix}`);
    this.name = "TurnInputError";
    this.code = code;
  }
}

/** `store.save(session, expectedVersion)` found another version stored: load again and replay the same input. */
export class SessionConflictError extends Error {
  readonly sessionId: string;
  readonly expectedVersion: number;
  /** The version the store found; undefined when the row is gone. */
  readonly actualVersion: number | undefined;
  constructor(sessionId: string, expectedVersion: number, actualVersion: number | undefined) {
    super(
      actualVersion === undefined
        ? `[SessionConflictError] Session "${sessionId}" is gone from the store: it was expected at version ${expectedVersion}. Load it again; a load that finds nothing starts a new conversation.`
        : `[SessionConflictError] Session "${sessionId}" was modified concurrently: expected version ${expectedVersion}, found ${actualVersion}. Reload the session and replay the same input.`,
    );
    this.name = "SessionConflictError";
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/** A stored blob is not a v4 session (nor a readable 3.x one); it is never replaced by a fresh conversation. */
export class InvalidSessionError extends Error {
  readonly sessionId: string;
  constructor(sessionId: string, why: string) {
    super(`[InvalidSessionError] stored session "${sessionId}" is unreadable: ${why}. Repair or delete the row; it is never replaced by a fresh conversation.`);
    this.name = "InvalidSessionError";
    this.sessionId = sessionId;
  }
}

export type ErrorKind = "aborted" | "timeout" | "network" | "overload" | "rate" | "quota" | "entitlement" | "auth" | "model" | "context" | "content" | "invalid" | "unknown";

const TRANSIENT: ReadonlySet<ErrorKind> = new Set(["timeout", "network", "overload", "rate"]);

export interface ProviderErrorInit {
  provider: string;
  kind: ErrorKind;
  message: string;
  status?: number;
  code?: string;
  retryAfterMs?: number;
  resetAtMs?: number;
  window?: "5h" | "weekly" | "monthly";
  shouldRetry?: boolean;
  body?: string;
  cause?: unknown;
}

/** A model call failed. `kind` says what would fix it. */
export class ProviderError extends Error {
  readonly provider: string;
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly resetAtMs?: number;
  readonly window?: "5h" | "weekly" | "monthly";
  readonly shouldRetry?: boolean;
  readonly body?: string;
  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ProviderError";
    this.provider = init.provider;
    this.kind = init.kind;
    for (const k of ["status", "code", "retryAfterMs", "resetAtMs", "window", "shouldRetry", "body"] as const) {
      if (init[k] !== undefined) Object.defineProperty(this, k, { value: init[k], enumerable: true });
    }
  }
  get isTransient(): boolean {
    return TRANSIENT.has(this.kind);
  }
  get isBackupEligible(): boolean {
    return this.isTransient || this.kind === "model" || this.kind === "quota";
  }
  /** Wraps anything thrown into a classified ProviderError; an existing one passes through. */
  static from(provider: string, err: unknown): ProviderError {
    if (err instanceof ProviderError) return err;
    const message = err instanceof Error ? err.message : String(err);
    const aborted = err instanceof Error && err.name === "AbortError";
    return new ProviderError({ provider, kind: aborted ? "aborted" : "unknown", message, cause: err });
  }
}
