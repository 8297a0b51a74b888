// The harness's public API: run a user's eval file in isolation and stream its events.
export { runEvalFile, workspaceOf, DEFAULT_HEAP_MB, DEFAULT_TIMEOUT_MS } from "./run-file";
export type { RunOptions, FileRunResult, HarnessRun, EndStatus, TestEndEvent } from "./run-file";
export { bundleEvalFile } from "./bundle";
export type { BundleMeta, BundleOutcome, BundleRequest } from "./bundle";
export { defaultCacheDir } from "./cache";
export type { RuntimeMode, RuntimeChoice } from "./packages";
export type { HarnessEvent, FailureInfo, SourceLocation, TestStatus } from "./events";
