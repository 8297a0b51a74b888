// The harness event stream: what one run of a user's file reports, from the child's private channel
// through the parent (runtime/src/harness) to its callers — `agent-lens run --json` (one object per line),
// the code lenses and the Testing view. Also the choices a caller passes in (RuntimeMode). Plain data.
import type { ReportKind, ReportPayloads } from "./reports";

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

/** How a run treats the file's recording (`agentLens.run.recordings`, `agent-lens run --record` / `--replay-only`):
 *  `auto` answers a call from the recording when its test has one, else runs it live, and writes nothing;
 *  `record` runs every call live and writes the recording; `replay-only` runs nothing live (a call without a
 *  recording fails the run). */
export type RecordingsMode = "auto" | "record" | "replay-only";

/** Token counts of one model call. */
export interface ModelCallUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
}

/** One model call of a test (`model-call` event): a stately executor answering a request, a falai provider call. */
export interface ModelCallInfo {
  /** 1-based position among the test's calls (the "#k" of a drift message). */
  index: number;
  library: "stately" | "falai";
  /** stately: the request name; falai: the schemaName ("understand", "speak"). */
  key: string;
  /** 1-based: the how-many-th call of this key within the test. */
  occurrence: number;
  model?: string;
  /** `live`: it ran (and, in a record run, was recorded); `replayed`: answered from the recording. */
  source: "live" | "replayed";
  /** When the replayed answer was recorded (ISO). */
  recordedAt?: string;
  usage?: ModelCallUsage;
  /** Where the user's code started the run or turn that made the call. */
  callSite?: SourceLocation;
  /** What the executor / provider received (secrets redacted, keys sorted), as the recording keeps it. */
  input: unknown;
  /** What it answered (secrets redacted); absent when it failed before answering. */
  output?: unknown;
  /** It failed: what it threw (name, message and the error's own plain fields). */
  error?: { name: string; message: string; [field: string]: unknown };
}

/** Why a replay did not answer a call (`drift` event). */
export type DriftReason =
  /** the call's input differs from the recorded one */
  | "changed"
  /** the recording of the test has no such call (a new request, or one more occurrence) */
  | "unexpected"
  /** a recorded call never came by the end of the test */
  | "missing"
  /** a replay-only run, and the recording has no calls for this test (or there is no recording) */
  | "not-recorded";

/** A replay that failed (`drift` event): the test fails with `message` whatever its own code did. */
export interface DriftInfo {
  reason: DriftReason;
  /** 1-based position of the call among the test's calls (`missing`: among the recorded calls). */
  index: number;
  library: "stately" | "falai";
  key: string;
  occurrence: number;
  model?: string;
  /** `replay drifted at call #2 (request "draftEmail", occurrence 1): the prompt changed`. */
  message: string;
  /** `changed`: the input fields that differ (`prompt`, `system`, `messages`, `history`, `input`, `tools`, …). */
  changed?: string[];
  /** `changed`: the input's changed lines with two lines of context: "- " recorded, "+ " now, "  " context, "…" a gap. */
  diff?: string[];
  /** The recording file (absolute path). */
  recording: string;
  /** How to record it again: `agent-lens run --record <file>`. */
  rerecord: string;
  callSite?: SourceLocation;
}

/** Put in a result's `data` when the channel could not carry the payload (too large, not serialisable):
 *  a sentence saying so. The event's kind, test and call site stay. */
export interface OmittedReport {
  "agent-lens": string;
}

/** A `result` event: one report of a user's call (a runSeam run, a turn, an explorePaths answer, …), its
 *  `data` the payload of its `kind` — narrow on `kind`, then `payloadOf` tells the payload from an
 *  OmittedReport. */
export type ResultEvent = {
  [K in ReportKind]: { type: "result"; kind: K; test?: string; callSite?: SourceLocation; data: ReportPayloads[K] | OmittedReport };
}[ReportKind];

/** The event's payload, or undefined when the channel could not carry it (an OmittedReport). */
export function payloadOf<E extends ResultEvent>(event: E): Exclude<E["data"], OmittedReport> | undefined {
  const data: unknown = event.data;
  const omitted = typeof data === "object" && data !== null && typeof (data as Partial<OmittedReport>)["agent-lens"] === "string";
  return omitted ? undefined : (event.data as Exclude<E["data"], OmittedReport>);
}

/** `path` on test-start / test-end: a node:test test's suite names and its own ("suite > test" is `test`). */
export type HarnessEvent =
  | { type: "start"; file: string; pid?: number; time: string; runtime: Record<string, RuntimeChoice>; test?: undefined }
  | { type: "test-start"; test: string; location?: SourceLocation; path?: string[] }
  | ResultEvent
  | { type: "console"; stream: "stdout" | "stderr"; text: string; test?: string }
  | { type: "test-end"; test: string; status: TestStatus; durationMs: number; location?: SourceLocation; failure?: FailureInfo; path?: string[] }
  | { type: "fail"; test?: string; failure: FailureInfo }
  | { type: "model-call"; test: string; call: ModelCallInfo }
  | { type: "drift"; test: string; drift: DriftInfo }
  | { type: "recording"; path: string; written: boolean; tests: string[]; note?: string }
  | { type: "end"; file: string; status: "passed" | "failed" | "timeout" | "cancelled" | "crashed"; durationMs: number; summary: { passed: number; failed: number; skipped: number } };

export type EndEvent = Extract<HarnessEvent, { type: "end" }>;
export type EndStatus = EndEvent["status"];
