// @statelyai/agent/testing — seam evals and verification helpers on the machine artifact.
export { runSeam } from "./testing/run-seam";
export type { RunSeamOptions, RunSeamResult, SeamCall, SeamRef, SeamTurn, SeamScriptEntry } from "./testing/run-seam";
