// @statelyai/agent/testing — seam evals and verification helpers on the machine artifact.
export { runSeam } from "./testing/run-seam";
export type { RunSeamOptions, RunSeamResult, SeamCall, SeamEvent, SeamRef, SeamTurn, SeamScriptEntry } from "./testing/run-seam";
export type { SeamScriptValue } from "./testing/script-entry";
export { simulateAgent } from "./testing/simulate";
export type { SimulateOptions, SimulationResult, SimulationScript } from "./testing/simulate";
export { explorePaths, canReach } from "./testing/explore";
export type { ExploreOptions, ExploreResult, ExploredPath } from "./testing/explore";
export { matchesTrajectory } from "./testing/trajectory";
export type { TrajectoryMatch, TrajectoryOptions } from "./testing/trajectory";
// Agent Lens extensions (not in the library's document): keyless seam runs and request listings.
export { keylessScripts, describeAgentMachine, exampleOf } from "./testing/keyless";
export type { AgentRequestDescription } from "./testing/keyless";
