// runEvalFile: bundle one eval file, run it in a child Node process with a time limit, a heap limit and
// cancellation, and stream its events. No VS Code types: the CLI, the code lenses and the Test Explorer
// all call this.
import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { harnessAssets } from "./assets";
import { bundleEvalFile, type BundleOutcome } from "./bundle";
import { defaultCacheDir, usableCacheDir } from "./cache";
import type { ChildFrame } from "./channel-protocol";
import { ChannelReader, loadFrameSchema, type ChannelItem } from "./channel-reader";
import { ChannelTrouble, silentChildFailure } from "./channel-trouble";
import type { EndStatus, FailureInfo, HarnessEvent, RecordingsMode, RuntimeChoice, RuntimeMode, SourceLocation, TestStatus } from "@agent-lens/protocol";
import { DEFAULT_TIMEOUT_SECONDS } from "@agent-lens/settings/defaults";
import { EventQueue } from "./event-queue";
import { DEFAULT_HEAP_MB, limitsProblem } from "@agent-lens/protocol/limits";
import { HarnessChild, mismatch, type ChildExit, type ChildSpec } from "./child-process";
import { ProcessTree, type ProcessInfo } from "./process-tree";
import { MemoryWatch } from "./memory-watch";
import type { WarmChildren } from "./warm-children";
import { startEarlyChild } from "./early-child";
import { workspaceOf } from "./workspace";
import type { RecordingWrite } from "./recordings-file";
import { RecordingsRun, type ModelCallSummary } from "./recordings-run";
import { childEnvironment } from "./run-env";

export { DEFAULT_HEAP_MB, workspaceOf };

export interface RunOptions {
  file: string;
  /** The workspace folder: the child's cwd and the root of the user's files. Default: the nearest folder
   *  above the file with a package.json, else the file's folder. */
  workspace?: string;
  /** Wall-clock limit in ms (default 30 000; 1 ms to 24 h, else the run fails with code invalid-option). */
  timeoutMs?: number;
  /** --max-old-space-size for the child, in MB (default 2048; a whole number from 16 up): V8's heap only. */
  heapMb?: number;
  /** Ends the file's process once its resident memory (Buffers and native memory included) is past this
   *  many MB (sampled; memory-watch.ts). Default: no limit. */
  maxRssMb?: number;
  runtime?: RuntimeMode;
  cacheDir?: string;
  /** Added to (and overriding) the parent's environment. */
  env?: Record<string, string | undefined>;
  /** A dotenv file whose variables the child gets too (absolute, or relative to the workspace; a variable
   *  the environment has wins). A missing file fails the run (code `env-file`) before anything starts. */
  envFile?: string;
  /** How the file's recording is used (default `auto`; see RecordingsMode). */
  recordings?: RecordingsMode;
  /** A node:test file runs only the tests these patterns name (Node's `--test-name-pattern`: a test runs when
   *  a pattern matches its name or a suite's around it); the others are reported skipped, so a record run
   *  rewrites only their part of the recording. A plain script runs whole. */
  testNamePatterns?: readonly string[];
  onEvent?: (event: HarnessEvent) => void;
  signal?: AbortSignal;
  /** Warm children to take this file's process from (and to start the next one behind it). */
  warm?: WarmChildren;
  /** Start the child while the bundle cache is checked (used when it matches the bundle, else ended). */
  startEarly?: boolean;
  /** A child already started for this file by startEarlyChild (the CLI starts it before it loads the
   *  harness): the run's from now on, used like startEarly's or ended. */
  earlyChild?: HarnessChild;
}

export type TestEndEvent = Extract<HarnessEvent, { type: "test-end" }>;

export interface FileRunResult {
  file: string;
  status: EndStatus;
  durationMs: number;
  summary: { passed: number; failed: number; skipped: number };
  tests: TestEndEvent[];
  /** File-level failures (fail events not tied to a test). */
  failures: FailureInfo[];
  runtime: Record<string, RuntimeChoice>;
  bundle: { cached: boolean; durationMs: number };
  /** The user's source files the bundle was built from (what --watch follows). */
  inputs: string[];
  /** Every model call, in the order they were reported (input and output left out). */
  modelCalls: ModelCallSummary[];
  /** A record run: the recording written (or why not). */
  recording?: RecordingWrite;
  /** The child process, when one ran the file: a warm child or not, the one started early (startEarly)
   *  or not (and why neither, when one was there), and how long it had been starting when the file was
   *  handed to it. */
  process?: { warm: boolean; early?: boolean; note?: string; headStartMs: number };
}

export interface HarnessRun {
  /** Every event in order; read it (or pass onEvent) from the moment runEvalFile returns. */
  readonly events: AsyncIterable<HarnessEvent>;
  readonly result: Promise<FileRunResult>;
  cancel(): void;
}

export const DEFAULT_TIMEOUT_MS = DEFAULT_TIMEOUT_SECONDS * 1000;
/** How much of the child's raw stderr is kept: enough for V8's out-of-memory report and its native stack. */
const STDERR_KEPT = 16 * 1024;

/** Whether the child died of V8's heap limit: it was aborted (SIGABRT, or exit code 134 where an abort is
 *  reported as one) and V8's fatal line is on its raw stderr, which only native code, direct fd 2 writes and
 *  grandchildren reach (console output goes over the channel). The line alone proves nothing: a passing
 *  file may print it. */
function diedOfHeap(exit: ChildExit, stderrTail: string): boolean {
  const aborted = exit.signal === "SIGABRT" || exit.code === 134;
  return aborted && /^FATAL ERROR: .*(Reached heap limit|heap out of memory)/m.test(stderrTail);
}

export function runEvalFile(options: RunOptions): HarnessRun {
  let queue: EventQueue | undefined;
  let cancelRequested = false;
  let cancelChild: (() => void) | undefined;
  const cancel = () => {
    cancelRequested = true;
    cancelChild?.();
  };
  options.signal?.addEventListener("abort", cancel, { once: true });
  const emit = (e: HarnessEvent) => {
    queue?.push(e);
    try {
      options.onEvent?.(e);
    } catch {
      // a listener's failure must not stop the run
    }
  };
  // Started on the next microtask, so a caller reading `events` right after this returns sees them all.
  const result = Promise.resolve().then(() => execute(options, emit, () => cancelRequested, (fn) => (cancelChild = fn))).finally(() => {
    queue?.close();
    options.signal?.removeEventListener("abort", cancel);
  });
  return {
    get events() {
      queue ??= new EventQueue();
      return queue;
    },
    result,
    cancel,
  };
}

async function execute(options: RunOptions, emit: (e: HarnessEvent) => void, cancelled: () => boolean, onCancel: (fn: () => void) => void): Promise<FileRunResult> {
  const started = performance.now();
  const file = resolve(options.file);
  const workspace = resolve(options.workspace ?? workspaceOf(file));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const heapMb = options.heapMb ?? DEFAULT_HEAP_MB;
  const fileTest = basename(file);
  const fileLocation: SourceLocation = { file, line: 1, column: 1 };

  const tests: TestEndEvent[] = [];
  const failures: FailureInfo[] = [];
  const open = new Map<string, SourceLocation | undefined>();
  // Model calls: collected, drift failing its test, the recording written at the end of a record run.
  const recordings = new RecordingsRun(file, options.recordings ?? "auto");
  let recording: RecordingWrite | undefined;
  const forward = (event: HarnessEvent) => {
    const e = event.type === "test-end" ? recordings.settle(event) : event;
    if (e.type === "test-start") open.set(e.test, e.location);
    if (e.type === "test-end") {
      open.delete(e.test);
      tests.push(e);
    }
    if (e.type === "fail" && !e.test) failures.push(e.failure);
    emit(e);
  };
  const endTest = (test: string, status: TestStatus, failure: FailureInfo | undefined, location?: SourceLocation) => {
    if (!open.has(test)) forward({ type: "test-start", test, location });
    forward({ type: "test-end", test, status, durationMs: 0, location: location ?? open.get(test), failure });
  };
  let inputs: string[] = [file];
  let processInfo: FileRunResult["process"];
  const finish = (status: EndStatus, runtime: Record<string, RuntimeChoice>, bundle: FileRunResult["bundle"]): FileRunResult => {
    const summary = { passed: 0, failed: 0, skipped: 0 };
    for (const t of tests) summary[t.status]++;
    if (status === "passed" && summary.failed) status = "failed";
    const durationMs = performance.now() - started;
    emit({ type: "end", file, status, durationMs, summary });
    return { file, status, durationMs, summary, tests, failures, runtime, bundle, inputs, modelCalls: recordings.summaries, ...(recording ? { recording } : {}), process: processInfo };
  };
  /** The file fails before any process starts: one failed test named after the file. */
  const failEarly = (failure: FailureInfo, runtime: Record<string, RuntimeChoice> = {}, bundle = { cached: false, durationMs: 0 }) => {
    forward({ type: "fail", test: fileTest, failure });
    endTest(fileTest, "failed", failure, fileLocation);
    return finish("failed", runtime, bundle);
  };

  const badOption = limitsProblem(timeoutMs, heapMb, options.maxRssMb);
  const childEnv = childEnvironment(process.env, { workspace, ...(options.env ? { env: options.env } : {}), ...(options.envFile !== undefined ? { envFile: options.envFile } : {}), ...(options.recordings ? { recordings: options.recordings } : {}) });
  if (badOption || !existsSync(file) || childEnv.problem) {
    if (options.earlyChild) await options.earlyChild.discard();
    emit({ type: "start", file, time: new Date().toISOString(), runtime: {} });
    if (childEnv.problem) return failEarly({ message: `Not run: ${childEnv.problem}`, code: "env-file" });
    return failEarly(badOption ? { message: `Not run: ${badOption}`, code: "invalid-option" } : { message: `No such file: ${file}`, code: "not-found" });
  }
  const cache = usableCacheDir(options.cacheDir ?? defaultCacheDir());
  const assets = harnessAssets();
  const env = childEnv.env!; // no problem: checked above
  // Started while the cache is checked, on a guess of what the bundle needs (a wrong guess is ended), and
  // loading the libraries the file's last build imported, when their files are intact.
  const early = options.earlyChild
    ?? (options.startEarly ? startEarlyChild({ file, workspace, env, heapMb, mode: options.runtime ?? "auto", cacheDir: cache.dir, assets }) : undefined);
  let bundled: BundleOutcome;
  try {
    bundled = await bundleEvalFile({ entry: file, workspace, mode: options.runtime, cacheDir: cache.dir });
  } catch (error) {
    // Something unforeseen (say, a cache folder that turned read-only): no child may outlive the run.
    if (early) await early.discard();
    throw error;
  }
  const bundleInfo = { cached: bundled.ok && bundled.cached, durationMs: bundled.durationMs };
  const runtime = bundled.ok ? bundled.meta.runtime : bundled.runtime;
  const warnCache = () => {
    if (cache.warning) forward({ type: "console", stream: "stderr", text: `${cache.warning}\n` });
  };
  if (!bundled.ok || cancelled()) {
    if (early) await early.discard();
    emit({ type: "start", file, time: new Date().toISOString(), runtime });
    warnCache();
    if (!bundled.ok) return failEarly(bundled.failure, runtime, bundleInfo);
    return finish("cancelled", runtime, bundleInfo);
  }
  const { meta, metaFile } = bundled;
  inputs = meta.userFiles;
  const spec: ChildSpec = { cwd: workspace, env, heapMb, nodeTest: meta.usesNodeTest, cacheDir: cache.dir, ...(meta.usesNodeTest && options.testNamePatterns?.length ? { testNamePatterns: options.testNamePatterns } : {}) };
  const libraries = meta.libs?.entries ?? [];
  // The child: the one started early for this file (CLI), a warm one (extension), or a new one.
  let child: HarnessChild | undefined;
  let childNote: string | undefined;
  if (early) {
    childNote = early.idle ? mismatch(early, spec, assets, libraries, "early child") : "the early child had exited";
    if (childNote) void early.discard();
    else child = early;
  }
  if (!child && options.warm) {
    const taken = options.warm.take(spec, libraries);
    child = taken.child;
    childNote = taken.miss;
  }
  const warm = child !== undefined && child !== early;
  const startedEarly = child !== undefined && child === early;
  child ??= new HarnessChild(spec, assets);
  processInfo = { warm, early: startedEarly || undefined, note: warm || startedEarly ? undefined : childNote, headStartMs: performance.now() - child.startedAt };
  emit({ type: "start", file, pid: child.pid, time: new Date().toISOString(), runtime });
  warnCache();

  // In a plain script the file is the one test; hold its end back until leftovers are known.
  let heldFileEnd: TestEndEvent | undefined;
  let doneExitCode: number | undefined;
  let stderrTail = "";
  const reader = new ChannelReader(child.channelSecret);
  const trouble = new ChannelTrouble();
  const onFrame = (frame: ChildFrame) => {
    if (frame.type !== "done") recordings.note(frame);
    if (frame.type === "done") doneExitCode = frame.exitCode;
    else if (frame.type === "test-end" && !meta.usesNodeTest && frame.test === fileTest) heldFileEnd = frame;
    else forward(frame);
  };
  const take = (items: ChannelItem[]) => {
    for (const item of items) {
      if (item.kind === "frame") onFrame(item.frame);
      else trouble.note(item);
    }
  };
  const channel = child.channel;
  let channelEnded = false;
  const endChannel = () => {
    if (channelEnded) return;
    channelEnded = true;
    take(reader.end());
  };
  channel.on("data", (chunk: Buffer) => take(reader.push(chunk)));
  channel.once("end", endChannel);
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8");
    child[stream].on("data", (text: string) => {
      if (stream === "stderr") stderrTail = (stderrTail + text).slice(-STDERR_KEPT);
      forward({ type: "console", stream, text, test: meta.usesNodeTest ? undefined : fileTest });
    });
  }

  // The file is handed over now: its time limit and the watch over its processes start here.
  child.run(metaFile);
  // Loaded now, not before the handover: the child's start-up is behind it (or well under way), and this
  // sync work is done before the first frame can be read anyway.
  loadFrameSchema();
  const tree = child.pid ? new ProcessTree(child.pid, child.runToken) : undefined;
  let timedOut = false;
  let wasCancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    tree?.killAll();
  }, timeoutMs);
  onCancel(() => {
    wasCancelled = true;
    tree?.killAll();
  });
  let overMemoryMb: number | undefined;
  const memory = options.maxRssMb !== undefined && child.pid ? new MemoryWatch(child.pid, options.maxRssMb, (mb) => {
    overMemoryMb = mb;
    tree?.killAll();
  }) : undefined;
  if (cancelled()) {
    wasCancelled = true;
    tree?.killAll();
  }

  const exit = await child.exited;
  clearTimeout(timer);
  memory?.stop();
  tree?.stop();

  // Anything the file left running is killed, then reported. (After a timeout or a cancel everything was
  // killed already; the wait makes sure it is gone.)
  const killed = timedOut || wasCancelled || overMemoryMb !== undefined;
  const survivors: ProcessInfo[] = tree && !killed ? tree.survivors() : [];
  if (survivors.length || killed) await tree?.killAllAndWait(survivors);
  // Wait for the pipes to drain (they close once every holder of them is gone).
  await child.drained(2000);
  child.release();
  endChannel();

  let status: EndStatus = "passed";
  let fileFailure: FailureInfo | undefined;
  if (exit.error) {
    status = "crashed";
    fileFailure = { message: `Could not start the child process: ${exit.error.message}`, code: "spawn" };
  } else if (wasCancelled) {
    status = "cancelled";
    fileFailure = { message: "The run was cancelled", code: "cancelled" };
  } else if (timedOut) {
    status = "timeout";
    fileFailure = { message: `Timed out after ${timeoutMs / 1000} s: the file did not finish (an endless loop, or a promise, timer or server that never ends)`, code: "timeout" };
  } else if (overMemoryMb !== undefined) {
    status = "crashed";
    fileFailure = { message: `Ran out of memory: the file used more than ${options.maxRssMb} MB of memory (--max-rss; ${Math.round(overMemoryMb)} MB resident when it was stopped)`, code: "memory" };
  } else if (diedOfHeap(exit, stderrTail)) {
    status = "crashed";
    fileFailure = { message: `Ran out of memory: the file used more than the heap limit of ${heapMb} MB`, code: "heap" };
  } else if (exit.signal) {
    status = "crashed";
    fileFailure = { message: `The process was killed by ${exit.signal}`, code: "signal" };
  } else if (doneExitCode === undefined) {
    // The process ended on its own, yet the child never said so: its report cannot be complete.
    fileFailure = silentChildFailure(reader.opened, exit.code, stderrTail);
    forward({ type: "fail", failure: fileFailure });
  }
  const tampered = trouble.failure();
  if (tampered) {
    forward({ type: "fail", failure: tampered });
    fileFailure ??= tampered;
  }
  if (survivors.length) {
    const list = survivors.map((p) => `  pid ${p.pid}: ${p.command.slice(0, 200)}`).join("\n");
    const leftover: FailureInfo = {
      message: `The file left ${survivors.length} child process${survivors.length === 1 ? "" : "es"} running after it finished; Agent Lens killed ${survivors.length === 1 ? "it" : "them"}:\n${list}`,
      code: "leftover-process",
    };
    forward({ type: "fail", failure: leftover });
    fileFailure ??= leftover;
  }

  if (heldFileEnd) {
    if (heldFileEnd.status !== "failed" && fileFailure) heldFileEnd = { ...heldFileEnd, status: "failed", failure: fileFailure };
    forward(heldFileEnd);
  }
  // Drift of code outside any test fails the file; a record run that ran to its end writes the recording.
  for (const failure of recordings.unclaimed()) forward({ type: "fail", failure });
  recording = recordings.write(tests, status === "passed" && doneExitCode !== undefined && !tampered ? undefined : status);
  if (recording) emit({ type: "recording", ...recording });
  const skippedByCancel = status === "cancelled";
  for (const [test, location] of [...open]) endTest(test, skippedByCancel ? "skipped" : "failed", fileFailure ?? { message: "The test did not finish: the process exited", code: "exit" }, location);
  // File-level trouble with no test to carry it gets a test named after the file.
  const carried = tests.some((t) => t.status === "failed");
  const fileLevel = fileFailure ?? (failures.length ? failures[0] : undefined);
  if (fileLevel && !carried && !skippedByCancel) endTest(fileTest, "failed", fileLevel, fileLocation);
  else if (!carried && exit.code !== 0 && !skippedByCancel && status === "passed") {
    // Green only with exit code 0, whatever the tests said.
    const said = stderrTail.trim().split("\n").slice(-8).join("\n");
    endTest(fileTest, "failed", { message: `The process exited with code ${exit.code}${said ? `:\n${said}` : ""}`, code: "exit" }, fileLocation);
  }
  if (status === "passed" && (failures.length || fileFailure)) status = "failed";
  const done = finish(status, runtime, bundleInfo);
  // The next run's child starts behind this one, once the caller has had the result (only where the
  // caller keeps warm children).
  const warmChildren = options.warm;
  // (for the whole file: a run of a few tests is no guess at the next run)
  const { testNamePatterns: _only, ...whole } = spec;
  if (warmChildren) setTimeout(() => warmChildren.prepare(whole, meta.libs), 0);
  return done;
}
