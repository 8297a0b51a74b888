// One file's run as its events tell it (run-file.ts's steps all write here): the tests that started and
// ended, the file-level failures, the model calls (drift failing its test), and the `end` event with the
// FileRunResult that closes it.
import { basename } from "node:path";
import type { EndStatus, FailureInfo, HarnessEvent, RecordingsMode, RuntimeChoice, SourceLocation, TestStatus } from "@agent-lens/protocol";
import type { RecordingWrite } from "./recordings-file";
import { RecordingsRun } from "./recordings-run";
import type { FileRunResult, TestEndEvent } from "./run-types";

export class RunLog {
  readonly tests: TestEndEvent[] = [];
  /** File-level failures (fail events not tied to a test). */
  readonly failures: FailureInfo[] = [];
  /** Tests that started and have not ended, with where they are. */
  private readonly open = new Map<string, SourceLocation | undefined>();
  /** Model calls: collected, drift failing its test, the recording written at the end of a record run. */
  readonly recordings: RecordingsRun;
  /** The test named after the file (a plain script's one test; file-level trouble with no test). */
  readonly fileTest: string;
  readonly fileLocation: SourceLocation;
  inputs: string[];
  processInfo: FileRunResult["process"];
  recording: RecordingWrite | undefined;

  constructor(
    readonly file: string,
    recordings: RecordingsMode,
    private readonly started: number,
    private readonly emit: (e: HarnessEvent) => void,
  ) {
    this.recordings = new RecordingsRun(file, recordings);
    this.fileTest = basename(file);
    this.fileLocation = { file, line: 1, column: 1 };
    this.inputs = [file];
  }

  /** An event of the run: drift settled on a test's end, the tests and failures kept, then emitted. */
  forward(event: HarnessEvent): void {
    const e = event.type === "test-end" ? this.recordings.settle(event) : event;
    if (e.type === "test-start") this.open.set(e.test, e.location);
    if (e.type === "test-end") {
      this.open.delete(e.test);
      this.tests.push(e);
    }
    if (e.type === "fail" && !e.test) this.failures.push(e.failure);
    this.emit(e);
  }

  /** Emitted as is, past the record (start, recording). */
  say(event: HarnessEvent): void {
    this.emit(event);
  }

  endTest(test: string, status: TestStatus, failure: FailureInfo | undefined, location?: SourceLocation): void {
    if (!this.open.has(test)) this.forward({ type: "test-start", test, location });
    this.forward({ type: "test-end", test, status, durationMs: 0, location: location ?? this.open.get(test), failure });
  }

  /** The tests that started and did not end, with their locations. */
  unfinished(): Array<[string, SourceLocation | undefined]> {
    return [...this.open];
  }

  /** The `end` event and the result. A file whose tests failed is failed, whatever else it said. */
  finish(status: EndStatus, runtime: Record<string, RuntimeChoice>, bundle: FileRunResult["bundle"]): FileRunResult {
    const summary = { passed: 0, failed: 0, skipped: 0 };
    for (const t of this.tests) summary[t.status]++;
    if (status === "passed" && summary.failed) status = "failed";
    const durationMs = performance.now() - this.started;
    const { file, tests, failures, inputs, recording } = this;
    this.emit({ type: "end", file, status, durationMs, summary });
    return { file, status, durationMs, summary, tests, failures, runtime, bundle, inputs, modelCalls: this.recordings.summaries, ...(recording ? { recording } : {}), process: this.processInfo };
  }

  /** The file fails before any process starts: one failed test named after the file. */
  failEarly(failure: FailureInfo, runtime: Record<string, RuntimeChoice> = {}, bundle = { cached: false, durationMs: 0 }): FileRunResult {
    this.forward({ type: "fail", test: this.fileTest, failure });
    this.endTest(this.fileTest, "failed", failure, this.fileLocation);
    return this.finish("failed", runtime, bundle);
  }
}
