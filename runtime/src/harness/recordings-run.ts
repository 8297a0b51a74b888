// The parent's side of one file's model calls (run-file.ts): it collects the child's `model-call` events,
// fails a test that drifted (whatever the test's own code did with the error it got: a test that caught it
// still cannot pass), turns drift of code outside any test (top-level code, a suite's hooks) into a failure
// of the file, and, in a record run that ran to its end, writes the recording.
import type { DriftInfo, FailureInfo, HarnessEvent, ModelCallInfo, RecordingsMode } from "@agent-lens/protocol";
import { writeRecording, type RecordingWrite } from "./recordings-file";
import { recordingPathOf } from "./recordings-path";

type TestEnd = Extract<HarnessEvent, { type: "test-end" }>;

/** What the CLI report keeps of a call (not its input and output). */
export type ModelCallSummary = Omit<ModelCallInfo, "input" | "output" | "callSite"> & { test: string };

/** A test's failure for its drift: the message, the input diff, how to record again, at the call site. */
function driftFailure(drift: DriftInfo): FailureInfo {
  const diff = drift.diff?.length ? `\n${drift.diff.join("\n")}` : "";
  const again = drift.reason === "not-recorded" ? "" : `\nRecord it again: ${drift.rerecord}`;
  return { message: `${drift.message}${diff}${again}`, code: drift.reason === "not-recorded" ? "not-recorded" : "replay-drift", ...(drift.callSite ? { location: drift.callSite } : {}) };
}

export class RecordingsRun {
  private readonly calls = new Map<string, ModelCallInfo[]>();
  private readonly drifts = new Map<string, DriftInfo>();
  private readonly ended = new Set<string>();
  readonly summaries: ModelCallSummary[] = [];

  constructor(private readonly file: string, readonly mode: RecordingsMode) {}

  /** A frame from the child, before it is forwarded. */
  note(event: HarnessEvent): void {
    if (event.type === "model-call") {
      const list = this.calls.get(event.test) ?? [];
      list.push(event.call);
      this.calls.set(event.test, list);
      const { input: _input, output: _output, callSite: _callSite, ...summary } = event.call;
      this.summaries.push({ test: event.test, ...summary });
    } else if (event.type === "drift" && !this.drifts.has(event.test)) {
      this.drifts.set(event.test, event.drift);
    }
  }

  /** A test's end as it is forwarded: failed by its drift. A recorded call the test never made does not
   *  hide a failure of its own (the test stopped early: that failure is the news); the others do (they
   *  caused what followed). */
  settle(end: TestEnd): TestEnd {
    this.ended.add(end.test);
    const drift = this.drifts.get(end.test);
    if (!drift || end.status === "skipped") return end;
    if (drift.reason === "missing" && end.status === "failed" && end.failure) {
      return { ...end, failure: { ...end.failure, message: `${end.failure.message}\n(also: ${drift.message})` } };
    }
    return { ...end, status: "failed", failure: driftFailure(drift) };
  }

  /** Drift of tests that never reported an end (calls outside any test, in a suite's hooks): failures of the file. */
  unclaimed(): FailureInfo[] {
    return [...this.drifts].filter(([test]) => !this.ended.has(test)).map(([test, drift]) => {
      const failure = driftFailure(drift);
      return { ...failure, message: `${test ? `${test}: ` : ""}${failure.message}` };
    });
  }

  /** In a record run: rewrites the recording with the tests that ran (`tests`: every test-end) — only when the
   *  run ended on its own with its report whole (`trouble` says how it did not: crashed, timeout, …). */
  write(tests: readonly TestEnd[], trouble?: string, now = new Date()): RecordingWrite | undefined {
    if (this.mode !== "record") return undefined;
    if (trouble) return { path: recordingPathOf(this.file), written: false, tests: [], note: `the run did not end normally (${trouble === "passed" ? "its report is incomplete" : trouble}): nothing was recorded` };
    const ran = new Set([...tests.filter((t) => t.status !== "skipped").map((t) => t.test), ...this.calls.keys()]);
    return writeRecording(this.file, [...ran], this.calls, now);
  }
}
