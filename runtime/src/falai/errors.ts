// Errors the library throws. Each carries a stable `code`; provider failures never surface as errors
// (a turn defers instead).

export type FalaiErrorCode =
  // turn input
  | "missing-session-id"
  | "message-and-wake"
  | "no-message-or-wake"
  | "missing-message-id"
  | "bad-message"
  | "bad-wake"
  | "session-mismatch"
  | "bad-session"
  // definitions
  | "bad-duration"
  | "bad-field-type"
  | "unknown-field"
  | "unknown-step"
  | "duplicate-step"
  | "duplicate-flow"
  | "empty-flow"
  | "unknown-tool"
  | "unknown-action"
  | "duplicate-tool"
  | "duplicate-action"
  | "bad-trigger"
  | "bad-option"
  // store
  | "session-conflict";

export class FalaiError extends Error {
  readonly code: FalaiErrorCode;
  constructor(code: FalaiErrorCode, message: string) {
    super(message);
    this.name = "FalaiError";
    this.code = code;
  }
}

/** `agent.turn()` was called with an input it cannot run (thrown before any call is spent). */
export class TurnInputError extends FalaiError {
  constructor(code: FalaiErrorCode, message: string) {
    super(code, message);
    this.name = "TurnInputError";
  }
}

/** A field, flow, step, trigger, tool or action definition is invalid (thrown by `fields`, `flow`, `agent`). */
export class DefinitionError extends FalaiError {
  constructor(code: FalaiErrorCode, message: string) {
    super(code, message);
    this.name = "DefinitionError";
  }
}

/** `MemoryStore.save(session, expectedVersion)` found another version stored: reload and replay the turn. */
export class SessionConflictError extends FalaiError {
  readonly sessionId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number;
  constructor(sessionId: string, expectedVersion: number, actualVersion: number) {
    super("session-conflict", `Session "${sessionId}" is at version ${actualVersion}, not the expected ${expectedVersion}: load it again and replay the turn.`);
    this.name = "SessionConflictError";
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}
