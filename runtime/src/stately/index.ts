// @statelyai/agent — setupAgent, runAgent, executeAgentRequest, AgentError and the public types.
export { setupAgent, createTextLogic, createDecisionLogic } from "./setup-agent";
export type { SetupAgentConfig } from "./setup-agent";
export type {
  AgentEventSchema,
  AgentIdlePredicate,
  AgentRequestConfig,
  DecideInput,
  DecisionLogicConfig,
  RequestSchemas,
  RequestResultOf,
  TextLogicConfig,
  AgentModels,
} from "./setup-agent-types";
export type { AgentRequestLogic } from "./request-logic";
export { runAgent } from "./run-agent";
export { provideExecutors } from "./provide-executors";
export type { RunAgentOptions, RunAgentResult } from "./run-agent";
export { isAgentIdle } from "./run-engine";
export type { PersistedSnapshot } from "./run-engine";
export type { AgentLogEntry } from "./event-log";
export { executeAgentRequest } from "./execute-request";
export { AgentError, isAgentError } from "./errors";
export { AgentDecisionExhaustedError } from "./decision-retry";
export type { AgentErrorCode } from "./errors";
export { getStatePath, getStateMeta } from "./snapshot-helpers";
export { isStandardSchema } from "./schema";
export type * from "./types";
// The scripted executors live in @statelyai/agent/testing; their types are named here too, as upstream does.
export type {
  ScriptedByName,
  ScriptedDecisionEntry,
  ScriptedDecisionValue,
  ScriptedExecutors,
  ScriptedExecutorsScript,
  ScriptedTextEntry,
} from "./testing/scripted-executors";
