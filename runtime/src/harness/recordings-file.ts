// Writing a file's recording (`__recordings__/<eval file name>.json`) after a record run: the parent does it,
// never the child. Only the tests that ran are rewritten (a test that made no model call loses its entry);
// the others keep theirs, so recording one test keeps the rest. Tests sorted by name, calls in the order
// they started, each call's fields in one order and its input's keys sorted, two-space JSON: a review diff
// shows one call per block. A test whose calls came out the same keeps its entry as it was (recordedAt
// included), so recording an unchanged file again changes no byte. Written to a temporary file, then renamed.
import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { ModelCallInfo } from "@agent-lens/protocol";
import { canonicalJson } from "../shared/recording/canonical";
import { RECORDING_VERSION, recordingProblem, type RecordedCall, type RecordedTest, type RecordingFile } from "../shared/recording/format";
import { recordingPathOf } from "./recordings-path";

export interface RecordingWrite {
  /** The recording file (absolute). */
  path: string;
  /** Whether the file on disk changed (written, or removed because no test made a call). */
  written: boolean;
  /** The tests whose entries this run wrote (or removed). */
  tests: string[];
  note?: string;
}

/** A call as the file keeps it, its fields in one order. */
function recordedCallOf(call: ModelCallInfo): RecordedCall {
  return {
    library: call.library, key: call.key, occurrence: call.occurrence, ...(call.model ? { model: call.model } : {}),
    input: call.input, ...("output" in call && call.output !== undefined ? { output: call.output } : {}),
    ...(call.error ? { error: call.error } : {}), ...(call.usage ? { usage: call.usage } : {}),
  };
}

function readExisting(path: string): { file?: RecordingFile; note?: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  try {
    const value: unknown = JSON.parse(text);
    const problem = recordingProblem(value);
    return problem ? { note: `the previous recording was replaced whole (${problem})` } : { file: value as RecordingFile };
  } catch {
    return { note: "the previous recording was not JSON and was replaced whole" };
  }
}

/**
 * Rewrites `evalFile`'s recording with the calls of `ran` (every test that ran, with or without calls),
 * `calls` by test. `now` is the recording time of the tests that changed.
 */
export function writeRecording(evalFile: string, ran: readonly string[], calls: ReadonlyMap<string, readonly ModelCallInfo[]>, now: Date): RecordingWrite {
  const path = recordingPathOf(evalFile);
  const existing = readExisting(path);
  const tests: Record<string, RecordedTest> = { ...(existing.file?.tests ?? {}) };
  const touched: string[] = [];
  for (const test of ran) {
    const made = [...(calls.get(test) ?? [])].sort((a, b) => a.index - b.index).map(recordedCallOf);
    const before = tests[test];
    if (!made.length) {
      if (before) touched.push(test);
      delete tests[test];
      continue;
    }
    touched.push(test);
    if (before && canonicalJson(before.calls) === canonicalJson(made)) continue;
    tests[test] = { recordedAt: now.toISOString(), calls: made };
  }
  const names = Object.keys(tests).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const note = existing.note;
  if (!names.length) {
    if (!existing.file && !existing.note) return { path, written: false, tests: touched, note: "no test made a model call: nothing to record" };
    rmSync(path, { force: true });
    try {
      rmdirSync(dirname(path)); // only when empty
    } catch {
      // other files live there
    }
    return { path, written: true, tests: touched, note: "no test made a model call: the recording was removed" };
  }
  const file: RecordingFile = { version: RECORDING_VERSION, file: basename(evalFile), tests: Object.fromEntries(names.map((n) => [n, tests[n]!])) };
  const text = `${JSON.stringify(file, null, 2)}\n`;
  let old: string | undefined;
  try {
    old = readFileSync(path, "utf8");
  } catch {
    old = undefined;
  }
  if (old === text) return { path, written: false, tests: touched, note: "the recording is unchanged" };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
  return { path, written: true, tests: touched, ...(note ? { note } : {}) };
}
