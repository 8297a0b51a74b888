// Wiring of the model-call recorder (recorder.ts) into the child: the interceptor is installed before any
// library loads (so a preloaded library sees the same process as a cold one); the file, its recording and the
// running test are read when a call comes. The mode is the run's (AGENT_LENS_RECORDINGS, set by the parent:
// part of the child's environment, so a warm child never serves a run of another mode).
import type { FailureInfo, RecordingsMode } from "@agent-lens/protocol";
import { readFileSync } from "node:fs";
import { basename, relative } from "node:path";
import { MODEL_CALLS_KEY } from "../../shared/model-calls";
import { recordingProblem, type RecordingFile } from "../../shared/recording/format";
import { RECORDINGS_MODE_VAR, recordingPathOf } from "../recordings-path";
import { MAX_FRAME_BYTES } from "../channel-protocol";
import { emit } from "./channel";
import type { UserCode } from "./locations";
import { ModelCallRecorder } from "./recorder";
import { RunningTests } from "./running-tests";

export interface RecordedFile {
  entry: string;
  user: UserCode;
  plain: boolean;
  fileTest: string;
}

function modeOf(value: string | undefined): RecordingsMode {
  return value === "record" || value === "replay-only" ? value : "auto";
}

/** Installs the recorder; `file()` is the file being run (undefined while the child waits for it), `fail`
 *  fails it (the plain script's test, else the file). */
export function installModelCalls(file: () => RecordedFile | undefined, fail: (failure: FailureInfo) => void) {
  const mode = modeOf(process.env[RECORDINGS_MODE_VAR]);
  let loaded: { value: RecordingFile | string | undefined } | undefined;
  const running = new RunningTests((test, skipped) => recorder.endTest(test, skipped));
  const recorder = new ModelCallRecorder({
    mode,
    emit: (frame) => {
      // A call the parent could not take whole would be missing from the recording: the run fails instead.
      const bytes = frame.type === "model-call" ? Buffer.byteLength(JSON.stringify(frame)) : 0;
      if (bytes > MAX_FRAME_BYTES - 64) { // the frame's secret and sequence number take the rest
        fail({ message: `Model call #${frame.type === "model-call" ? frame.call.index : 0} of test ${JSON.stringify(frame.test)} is too large to report or record (${bytes} bytes of JSON; the limit is ${MAX_FRAME_BYTES})`, code: "recording-too-large" });
      } else emit(frame);
    },
    fail,
    currentTest: () => {
      const f = file();
      if (!f || f.plain) return { test: f?.fileTest ?? "" };
      const current = running.current();
      return current.concurrent ? current : { test: current.test ?? f.fileTest };
    },
    recording: () => (loaded ??= { value: readRecording(file()?.entry) }).value,
    get recordingPath() {
      const entry = file()?.entry;
      return entry ? recordingPathOf(entry) : "";
    },
    get rerecord() {
      const entry = file()?.entry ?? "";
      return `agent-lens run --record ${relative(process.cwd(), entry) || basename(entry)}`;
    },
    locate: (callSite) => (callSite ? file()?.user.firstUserFrame(callSite.stack) : undefined),
  });
  (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY] = recorder;
  return {
    /** node:test's events, as the runner pushes them (the test running now, and each one's end). */
    onTestEvent: (event: { type: string; data: unknown }) => running.onEvent(event),
    /** The process is exiting: the plain script's test (or a node:test file's top-level code) ended. */
    onExit: () => {
      const f = file();
      if (f) recorder.endTest(f.fileTest);
    },
  };
}

function readRecording(entry: string | undefined): RecordingFile | string | undefined {
  if (!entry) return undefined;
  let text: string;
  try {
    text = readFileSync(recordingPathOf(entry), "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? undefined : `it cannot be read (${(error as Error).message})`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not JSON (${(error as Error).message})`;
  }
  const problem = recordingProblem(value);
  return problem ?? value as RecordingFile;
}

