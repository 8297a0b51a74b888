// The recording file: `__recordings__/<eval file name>.json` beside the eval file, written by
// `agent-lens run --record` (the harness parent) and read by every later run (the harness child) and by
// the library-level replays (createRecordedExecutors, recordedProvider). Grouped by test, calls in the
// order they started; inputs with their keys sorted, so a review diff shows one call per block.
import type { KeptError, ModelLibrary, ModelUsage } from "../model-calls";

export const RECORDING_VERSION = 1;

/** One model call as recorded. */
export interface RecordedCall {
  library: ModelLibrary;
  /** stately: the request name; falai: the schemaName. */
  key: string;
  /** 1-based: the how-many-th call of this key within its test. */
  occurrence: number;
  model?: string;
  /** What the executor / provider received (secrets redacted, keys sorted). */
  input: unknown;
  /** What it answered (a streamed falai call: `{ chunks }`). Absent when it failed before answering. */
  output?: unknown;
  /** The call failed: what it threw. */
  error?: KeptError;
  usage?: ModelUsage;
}

export interface RecordedTest {
  /** When the test was recorded (ISO); every call of a test is recorded in the same run. */
  recordedAt: string;
  calls: RecordedCall[];
}

export interface RecordingFile {
  version: typeof RECORDING_VERSION;
  /** The eval file's name (the recording sits in `__recordings__/` beside it). */
  file: string;
  /** By test name: the node:test path ("suite > test"), or the file's name for a plain script. */
  tests: Record<string, RecordedTest>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why `value` is not a recording file (one sentence), or undefined when it is one. */
export function recordingProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "it is not a JSON object";
  if (value.version !== RECORDING_VERSION) return `its version is ${JSON.stringify(value.version)}, not ${RECORDING_VERSION}`;
  if (!isRecord(value.tests)) return "it has no `tests` object";
  for (const [name, test] of Object.entries(value.tests)) {
    const problem = testProblem(test);
    if (problem) return `test ${JSON.stringify(name)}: ${problem}`;
  }
  return undefined;
}

/** Why `value` is not one test's recording, or undefined. */
function testProblem(value: unknown): string | undefined {
  if (!isRecord(value) || !Array.isArray(value.calls)) return "it has no `calls` list";
  if (typeof value.recordedAt !== "string") return "it has no `recordedAt` time";
  for (const [i, call] of value.calls.entries()) {
    if (!isRecord(call) || (call.library !== "stately" && call.library !== "falai") || typeof call.key !== "string" || !Number.isInteger(call.occurrence) || (call.occurrence as number) < 1) {
      return `call ${i + 1} needs a library ("stately" or "falai"), a key and an occurrence (1, 2, ...)`;
    }
    if (!("output" in call) && !isRecord(call.error)) return `call ${i + 1} has neither an output nor an error`;
  }
  return undefined;
}

/** The calls of one library that a library-level replay answers from: `recording` is a recording file (then
 *  `test` names the test, or the file holds exactly one), one test's `{ recordedAt, calls }`, or a list of
 *  calls. A string says what is wrong with it. */
export function recordedCallsOf(recording: unknown, test: string | undefined, library: ModelLibrary): RecordedCall[] | string {
  let calls: unknown = recording;
  if (isRecord(recording) && "tests" in recording) {
    const problem = recordingProblem(recording);
    if (problem) return `the recording is not usable: ${problem}`;
    const tests = recording.tests as Record<string, RecordedTest>;
    const names = Object.keys(tests);
    const name = test ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined) return `the recording holds ${names.length} tests (${names.map((n) => JSON.stringify(n)).join(", ")}): name one with { test }`;
    if (!tests[name]) return `the recording has no test ${JSON.stringify(name)}; it has ${names.map((n) => JSON.stringify(n)).join(", ") || "none"}`;
    calls = tests[name]!.calls;
  } else if (isRecord(recording) && "calls" in recording) {
    const problem = testProblem(recording);
    if (problem) return `the recording is not usable: ${problem}`;
    calls = recording.calls;
  } else if (Array.isArray(recording)) {
    const problem = testProblem({ recordedAt: "", calls: recording });
    if (problem) return `the recording is not usable: ${problem}`;
  } else {
    return "pass a recording file's JSON (with { test }), one test's { recordedAt, calls }, or its list of calls";
  }
  return (calls as RecordedCall[]).filter((c) => c.library === library);
}
