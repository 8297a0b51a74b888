// The harness event stream: one JSON object per line on the child's private channel, re-emitted by the
// parent to its caller (the CLI, the code lenses, the Test Explorer). No VS Code types.
import type { ReportKind } from "../shared/report";

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
  | { type: "start"; file: string; pid?: number; time: string; runtime: Record<string, "bundled" | "workspace">; test?: undefined }
  | { type: "test-start"; test: string; location?: SourceLocation; path?: string[] }
  | { type: "result"; kind: ReportKind; test?: string; callSite?: SourceLocation; data: unknown }
  | { type: "console"; stream: "stdout" | "stderr"; text: string; test?: string }
  | { type: "test-end"; test: string; status: TestStatus; durationMs: number; location?: SourceLocation; failure?: FailureInfo; path?: string[] }
  | { type: "fail"; test?: string; failure: FailureInfo }
  | { type: "end"; file: string; status: "passed" | "failed" | "timeout" | "cancelled" | "crashed"; durationMs: number; summary: { passed: number; failed: number; skipped: number } };
