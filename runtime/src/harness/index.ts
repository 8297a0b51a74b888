// The harness's public API: run a user's eval file in isolation and stream its events (their types are the
// protocol's, @agent-lens/protocol, and are named here for callers of this API).
export { runEvalFile, workspaceOf, DEFAULT_HEAP_MB } from "./run-file";
export { DEFAULT_TIMEOUT_MS } from "./run-types";
export { WarmChildren } from "./warm-children";
export type { WarmChildrenOptions, TakeResult } from "./warm-children";
export type { ChildSpec } from "./child-process";
export type { RunOptions, FileRunResult, HarnessRun, TestEndEvent } from "./run-types";
export { bundleEvalFile } from "./bundle";
export type { BundleMeta, BundleOutcome, BundleRequest } from "./bundle";
export { defaultCacheDir, usableCacheDir } from "./cache";
export { discoverFiles, shardOf } from "./discover";
export { HEAP_RULE, MAX_TIMEOUT_SECONDS, TIMEOUT_RULE, parseDecimal, validHeapMb, validMaxRssMb, validTimeoutMs } from "@agent-lens/protocol/limits";
export { formatFileResult, summaryLine } from "./report-text";
export { childEnvironment } from "./run-env";
export { recordingPathOf, RECORDINGS_FOLDER } from "./recordings-path";
export type { RecordingWrite } from "./recordings-file";
export type { ModelCallSummary } from "./recordings-run";
export type { HarnessEvent, EndStatus, FailureInfo, SourceLocation, TestStatus, RuntimeMode, RuntimeChoice, RecordingsMode, ModelCallInfo, DriftInfo } from "@agent-lens/protocol";
