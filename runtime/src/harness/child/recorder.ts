// The harness child's model-call interceptor (installed under MODEL_CALLS_KEY, runtime/src/shared/
// model-calls.ts, before the user's code loads). Per call, by the run's recordings mode:
//   record       the call runs as the file wrote it; the call (redacted) goes to the parent as a
//                `model-call` event, and the parent writes the recording at the end;
//   auto         a call whose test has a recording is answered from it (nothing leaves the machine), else
//                it runs as written;
//   replay-only  every call is answered from the recording; a test without one fails.
// A replayed call whose input differs, a call the recording does not have, and (at the test's end) a
// recorded call that never came are drift: a `drift` event (the parent fails the test with it, whatever
// the user's code did) and, for the first two, a ReplayDriftError thrown into the user's code instead of
// an answer — a drifted call never goes live.
import type { DriftInfo, ModelCallInfo, RecordingsMode, SourceLocation } from "@agent-lens/protocol";
import { ReplayDriftError, type KeptError, type ModelCallInterceptor, type ModelCallSpec, type ModelStreamSpec } from "../../shared/model-calls";
import { plainJson } from "../../shared/recording/canonical";
import type { RecordedCall, RecordingFile } from "../../shared/recording/format";
import { redact } from "../../shared/recording/redact";
import { recordedFormOf, TestReplay } from "../../shared/recording/replayer";
import type { CurrentTest } from "./running-tests";

export type RecorderFrame = { type: "model-call"; test: string; call: ModelCallInfo } | { type: "drift"; test: string; drift: DriftInfo };

export interface RecorderHost {
  mode: RecordingsMode;
  emit(frame: RecorderFrame): void;
  /** Fails the file (a problem of no one call: an unusable recording, tests running at once). */
  fail(failure: { message: string; code: string }): void;
  /** The test running now. */
  currentTest(): CurrentTest;
  /** The file's recording (read once, when first needed): undefined when there is none, a string when it is unusable. */
  recording(): RecordingFile | string | undefined;
  /** The recording's path and the command that records the file, for messages. */
  recordingPath: string;
  rerecord: string;
  /** The user's frame in a call site's stack. */
  locate(callSite: Error | undefined): SourceLocation | undefined;
}

interface TestCalls {
  /** Set when the test is replayed from the recording. */
  replay?: TestReplay;
  recordedAt?: string;
  /** Live calls: the count so far, and per key. */
  calls: number;
  counts: Map<string, number>;
  driftSent: boolean;
}

type Spec = ModelCallSpec<unknown> | ModelStreamSpec<unknown>;

/** A thrown value as a recording keeps it. */
function keptError(error: unknown): KeptError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const out: KeptError = { name: error.name, message: error.message };
  for (const [k, v] of Object.entries(error)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[k] = v;
  return out;
}

export class ModelCallRecorder implements ModelCallInterceptor {
  private readonly tests = new Map<string, TestCalls>();
  private fileFailed = false;

  constructor(private readonly host: RecorderHost) {}

  call<T>(spec: ModelCallSpec<T>): Promise<T> {
    return (async () => {
      const plan = this.plan(spec as Spec);
      if (plan.kind === "replay") {
        if (plan.recorded.error) throw spec.rebuildError(plan.recorded.error);
        return spec.rebuild(structuredClone(plan.recorded.output));
      }
      let answer: T;
      try {
        answer = await spec.live();
      } catch (error) {
        plan.done(undefined, error);
        throw error;
      }
      plan.done(spec.keep(answer));
      return answer;
    })();
  }

  stream<C>(spec: ModelStreamSpec<C>): AsyncIterable<C> {
    const self = this;
    return (async function* replayOrRecord(): AsyncGenerator<C> {
      const plan = self.plan(spec as Spec);
      if (plan.kind === "replay") {
        yield* spec.rebuild(structuredClone(plan.recorded.output));
        if (plan.recorded.error) throw spec.rebuildError(plan.recorded.error);
        return;
      }
      const chunks: C[] = [];
      try {
        for await (const chunk of spec.live()) {
          chunks.push(chunk);
          yield chunk;
        }
      } catch (error) {
        plan.done(spec.keep(chunks), error);
        throw error;
      }
      plan.done(spec.keep(chunks));
    })();
  }

  /** The test finished (node:test's test:complete; a plain script's exit): a recorded call it never made is drift. */
  endTest(test: string, skipped = false): void {
    if (skipped || this.host.mode === "record") return;
    const state = this.stateOf(test, false);
    const missing = state?.replay?.missing();
    if (missing && state && !state.driftSent) this.sendDrift(test, state, missing, undefined);
  }

  private stateOf(test: string, create: true): TestCalls;
  private stateOf(test: string, create: boolean): TestCalls | undefined;
  private stateOf(test: string, create: boolean): TestCalls | undefined {
    let state = this.tests.get(test);
    if (state) return state;
    const recording = this.host.mode === "record" ? undefined : this.host.recording();
    const recorded = typeof recording === "object" ? recording.tests[test] : undefined;
    if (!recorded && !create) return undefined;
    state = { calls: 0, counts: new Map(), driftSent: false, ...(recorded ? { replay: new TestReplay(recorded.calls), recordedAt: recorded.recordedAt } : {}) };
    this.tests.set(test, state);
    return state;
  }

  /** What to do with a call: answer it from the recording, or run it live (and report it when it is done). */
  private plan(spec: Spec): { kind: "replay"; recorded: RecordedCall } | { kind: "live"; done(kept: unknown, error?: unknown): void } {
    const host = this.host;
    const current = host.currentTest();
    const recording = host.mode === "record" ? undefined : host.recording();
    if (typeof recording === "string") throw this.fileFailure(`${host.recordingPath} cannot be used: ${recording}. Fix it, or record the file again: ${host.rerecord}`, "recording-invalid");
    if (current.concurrent && (host.mode === "record" || recording)) {
      throw this.fileFailure(
        `A model call started while ${current.concurrent.length} tests ran at once (${current.concurrent.map((t) => JSON.stringify(t)).join(", ")}): ` +
          "calls are recorded and replayed per test, so the tests of a file with a recording must run one at a time (node:test's default; drop `concurrency`).",
        "recording-concurrency",
      );
    }
    const test = current.concurrent ? current.concurrent.at(-1)! : current.test ?? "";
    const state = this.stateOf(test, true);
    const callSite = host.locate(spec.callSite);
    if (state.replay) {
      const step = state.replay.next({ library: spec.library, key: spec.key, ...(spec.model ? { model: spec.model } : {}), input: spec.input() });
      if (step.drift) {
        if (!state.driftSent) this.sendDrift(test, state, step.drift, callSite);
        throw new ReplayDriftError(step.drift.message);
      }
      const r = step.recorded;
      host.emit({
        type: "model-call", test,
        call: {
          index: step.index, library: spec.library, key: spec.key, occurrence: step.occurrence, ...(r.model ? { model: r.model } : {}), source: "replayed",
          ...(state.recordedAt ? { recordedAt: state.recordedAt } : {}), ...(r.usage ? { usage: r.usage } : {}), ...(callSite ? { callSite } : {}),
          input: step.input, ...("output" in r ? { output: r.output } : {}), ...(r.error ? { error: r.error } : {}),
        },
      });
      return { kind: "replay", recorded: r };
    }
    const index = ++state.calls;
    const occurrence = (state.counts.get(spec.key) ?? 0) + 1;
    state.counts.set(spec.key, occurrence);
    if (host.mode === "replay-only") {
      const message = `no recording for test ${JSON.stringify(test)} in ${host.recordingPath}: a replay-only run makes no live model calls. Record it with: ${host.rerecord}`;
      if (!state.driftSent) this.sendDrift(test, state, { reason: "not-recorded", index, library: spec.library, key: spec.key, occurrence, message, ...(spec.model ? { model: spec.model } : {}) }, callSite);
      throw new ReplayDriftError(message, "not-recorded");
    }
    const input = recordedFormOf(spec.input());
    return {
      kind: "live",
      done: (kept, error) => {
        const output = kept === undefined ? undefined : redact(plainJson(kept));
        const model = spec.model ?? (output !== undefined ? spec.answeredModel?.(output) : undefined);
        const usage = output !== undefined ? spec.usage(output) : undefined;
        host.emit({
          type: "model-call", test,
          call: {
            index, library: spec.library, key: spec.key, occurrence, ...(model ? { model } : {}), source: "live", ...(usage ? { usage } : {}),
            ...(callSite ? { callSite } : {}), input, ...(output !== undefined ? { output } : {}), ...(error !== undefined ? { error: redact(keptError(error)) } : {}),
          },
        });
      },
    };
  }

  private sendDrift(test: string, state: TestCalls, drift: Omit<DriftInfo, "recording" | "rerecord" | "callSite">, callSite: SourceLocation | undefined): void {
    state.driftSent = true;
    this.host.emit({ type: "drift", test, drift: { ...drift, recording: this.host.recordingPath, rerecord: this.host.rerecord, ...(callSite ? { callSite } : {}) } });
  }

  /** A problem of the whole file (an unusable recording, concurrent tests): said once, thrown at every call. */
  private fileFailure(message: string, code: string): ReplayDriftError {
    if (!this.fileFailed) {
      this.fileFailed = true;
      this.host.fail({ message, code });
    }
    return new ReplayDriftError(message);
  }
}
