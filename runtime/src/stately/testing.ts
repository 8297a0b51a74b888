// @statelyai/agent/testing — lint, seam evals, scripted executors, trajectories and the verification
// helpers on the machine artifact. The names are the library's (see runtime/README.md for what is left out).
export { lintAgentMachine, assertAgentMachine, AgentLintError } from "./testing/lint";
export type { AgentLintCode, AgentLintDiagnostic, AgentLintSeverity, AssertAgentMachineOptions, LintAgentMachineOptions } from "./testing/lint";
export { runSeam } from "./testing/run-seam";
export type { RunSeamOptions, RunSeamResult, SeamCall, SeamEvent, SeamRef, SeamSlice, SeamTurn } from "./testing/seam-types";
export type { SeamScriptEntry } from "./testing/script-entry";
export type { SeamScriptValue } from "./testing/script-entry";
export { createScriptedExecutors } from "./testing/scripted-executors";
export type {
  ScriptedByName,
  ScriptedDecisionEntry,
  ScriptedDecisionValue,
  ScriptedExecutorCall,
  ScriptedExecutors,
  ScriptedExecutorsScript,
  ScriptedTextEntry,
} from "./testing/scripted-executors";
export { createRecordedExecutors } from "./testing/recorded-executors";
export type { RecordedExecutors, RecordedExecutorsOptions } from "./testing/recorded-executors";
export { simulateAgent } from "./testing/simulate";
export type { SimulateAgentOptions, SimulateAgentResult, SimulationScript, SimulationTrailEntry } from "./testing/simulate";
export { explorePaths, canReach } from "./testing/explore";
export type { AgentPathReport, AgentPathTerminal, CanReachResult, ExplorePathsOptions } from "./testing/explore";
export { AgentUnknownStateError } from "./testing/state-names";
export { matchesTrajectory } from "./testing/trajectory";
export type { MatchTrajectoryOptions, TrajectoryEvent, TrajectoryItem, TrajectoryMatch, TrajectoryMiss } from "./testing/trajectory";
// Agent Lens extensions (not in the library's document): keyless seam runs and request listings.
export { keylessScripts, describeAgentMachine, exampleOf } from "./testing/keyless";
export type { AgentRequestDescription } from "./testing/keyless";
