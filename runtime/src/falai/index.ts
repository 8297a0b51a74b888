// @falai/agent — our implementation of the documented API (see runtime/README.md "@falai/agent").
export { falai, type Falai, type FalaiBuilder } from "./define";
export { Agent } from "./agent";
export { fakeClock, systemClock, type FakeClock } from "./clock";
export { MemoryStore } from "./store";
export { MemoryScheduler } from "./scheduler";
export { FalaiError, TurnInputError, DefinitionError, SessionConflictError, type FalaiErrorCode } from "./errors";
export { parseDuration, tryParseDuration } from "./duration";
export { coerceField, parseHumanNumber } from "./coerce";
export { RETRY_BASE_MS, RETRY_MAX_MS, MAX_TOOL_ROUNDS, START_SCORE } from "./turn";
export { SEEN_CAP, DONE_RUNS_CAP } from "./session";
export type * from "./types";
