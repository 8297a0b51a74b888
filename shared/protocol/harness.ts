// The harness event stream: what one run of a user's file reports, from the child's private channel
// through the parent (runtime/src/harness) to its callers — `agent-lens run --json` (one object per line),
// the code lenses and the Testing view. Also the choices a caller passes in (RuntimeMode). Plain data.
import type { ReportKind } from "./reports";

/** Which copy of @statelyai/agent / @falai/agent runs the user's code (`agentLens.run.runtime`, `--runtime`). */
export type RuntimeMode = "auto" | "bundled" | "workspace";
/** The copy a run actually used, per managed package group (the `start` event's `runtime` map). */
export type RuntimeChoice = "bundled" | "workspace";

/** 1-based line and column, absolute file path (mapped through source maps to the user's source). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type TestStatus = "passed" | "failed" | "skipped";

export interface FailureInfo {
  message: string;
  /** AgentError code, Node error code (ERR_ASSERTION), or a harness code (timeout, exit, heap, syntax...). */
  code?: string;
  expected?: unknown;
  actual?: unknown;
  /** Node's assertion operator (deepStrictEqual, strictEqual, ...). */
  operator?: string;
  location?: SourceLocation;
  stack?: string;
}

/** `path` on test-start / test-end: a node:test test's suite names and its own ("suite > test" is `test`). */
export type HarnessEvent =
  | { type: "start"; file: string; pid?: number; time: string; runtime: Record<string, RuntimeChoice>; test?: undefined }
  | { type: "test-start"; test: string; location?: SourceLocation; path?: string[] }
  | { type: "result"; kind: ReportKind; test?: string; callSite?: SourceLocation; data: unknown }
  | { type: "console"; stream: "stdout" | "stderr"; text: string; test?: string }
  | { type: "test-end"; test: string; status: TestStatus; durationMs: number; location?: SourceLocation; failure?: FailureInfo; path?: string[] }
  | { type: "fail"; test?: string; failure: FailureInfo }
  | { type: "end"; file: string; status: "passed" | "failed" | "timeout" | "cancelled" | "crashed"; durationMs: number; summary: { passed: number; failed: number; skipped: number } };

export type EndEvent = Extract<HarnessEvent, { type: "end" }>;
export type EndStatus = EndEvent["status"];
