// The harness child: runs one bundled eval file and streams its events to the parent on fd 3.
// It installs the runtime reporter, captures console output, and turns every way user code can go
// wrong (a throw, a rejection, process.exit, a top-level await that never settles) into a failure.
// Its last event is `done`, from the exit handler: a run without it did not end normally.
//
// The file to run comes over the control pipe (fd 4, ./control.ts), so a child can be started before the
// file is known (a warm child) and preload the libraries. Everything that does not depend on the file is
// installed first, before any library loads, exactly as for a child started for the file (a cold start
// writes the same messages at once): a warm child differs from a cold one only in when `run` arrives.
import { emit } from "./channel"; // first: the channel's hello goes out before anything else runs
import { readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { RuntimeReport } from "../../shared/report";
import { REPORTER_KEY } from "../../shared/report";
import type { BundleMeta } from "../bundle";
import type { FailureInfo, ResultEvent, SourceLocation } from "@agent-lens/protocol";
import { readControl } from "./control";
import { failureFrom } from "./failures";
import { toJsonSafe } from "./json-safe";
import { UserCode } from "./locations";
import { installModelCalls } from "./model-calls";
import { NodeTestTracker, tapTestsStream } from "./node-test";

const NODE_TEST_HOOK = Symbol.for("agent-lens.node-test-hook");

// The file's duration, on process.hrtime: the global `performance` would load node:perf_hooks (~3 ms of
// every start). Taken now, before user code can replace it.
const hrtime = process.hrtime;
function nowMs(): number {
  const [s, ns] = hrtime();
  return s * 1e3 + ns / 1e6;
}

// Node ≥ 22 keeps V8's compiled code for the bundle in the cache folder between runs (VS Code's Node does).
const compileCache = process.env.AGENT_LENS_COMPILE_CACHE;
if (compileCache) {
  try {
    (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(compileCache);
  } catch {
    // an older Node, or an unwritable folder: run without it
  }
}

/** The file being run; unset while the child waits for it. */
interface Running {
  meta: BundleMeta;
  user: UserCode;
  fileTest: string;
  fileLocation: SourceLocation;
  plain: boolean;
  tracker: NodeTestTracker;
  started: number;
}
let running: Running | undefined;

let failure: FailureInfo | undefined;
let topLevelDone = false;
let exitCall: { code: number; location?: SourceLocation } | undefined;
let fileFailEmitted = false;

function currentTest(): string | undefined {
  return running?.plain ? running.fileTest : undefined;
}

function recordFailure(f: FailureInfo): void {
  if (failure) return;
  failure = f;
  emit({ type: "fail", test: currentTest(), failure: f });
}

// Results from the runtime, each with the user's call site. The one place a report becomes a result
// event: the runtime's report() took the payload of its kind (ReportPayloads), and its JSON-safe copy keeps
// that shape (plain JSON as it is), so the event is the ResultEvent of that kind.
(globalThis as Record<symbol, unknown>)[REPORTER_KEY] = (report: RuntimeReport) => {
  emit({ type: "result", kind: report.kind, test: currentTest(), callSite: running?.user.firstUserFrame(report.callSite?.stack), data: toJsonSafe(report.payload) } as ResultEvent);
};
(globalThis as Record<symbol, unknown>)[NODE_TEST_HOOK] = (event: { type: string; data: unknown } | undefined) => {
  if (!running) return;
  if (event) running.tracker.onEvent(event, "reporter");
  else running.tracker.onRunnerEnd("reporter");
};

// Model calls: recorded, or answered from the file's recording (model-calls.ts).
const modelCalls = installModelCalls(
  () => running && { entry: running.meta.entry, user: running.user, plain: running.plain, fileTest: running.fileTest },
  (f) => (running?.plain ? recordFailure(f) : emit({ type: "fail", failure: f })),
);

// Console output and direct stream writes become console events (nothing reaches the real stdout).
for (const stream of ["stdout", "stderr"] as const) {
  const target = process[stream];
  // Opening the stream made its descriptor (a pipe: ../output-pipes.ts) non-blocking, which a direct
  // fs.writeSync(1, …) of more than the pipe holds fails on (EAGAIN); a terminal, or `node file | cat`
  // before Node opens the stream, blocks instead. Nothing of ours writes there (the capture below sends
  // everything over the channel), so the descriptor goes back to blocking.
  (target as { _handle?: { setBlocking?: (blocking: boolean) => unknown } })._handle?.setBlocking?.(true);
  target.write = function write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    if (text) emit({ type: "console", stream, text, test: currentTest() });
    const cb = typeof encoding === "function" ? encoding : callback;
    if (typeof cb === "function") process.nextTick(cb as () => void);
    return true;
  } as typeof target.write;
}

const realExit = process.exit.bind(process);
process.exit = function exit(code?: number | string | null): never {
  const n = Number(code ?? process.exitCode ?? 0) || 0;
  exitCall = { code: n, location: running?.user.firstUserFrame(new Error().stack) };
  return realExit(code as number);
} as typeof process.exit;

process.on("exit", (code) => {
  if (!running) return; // discarded before it ran anything: nothing to report
  try {
    modelCalls.onExit(); // a recorded call the file never made is drift, reported before its test ends
    if (running.plain) endPlainScript(running, code);
    else endNodeTestFile(running, code);
  } finally {
    emit({ type: "done", exitCode: code });
  }
});

/** The file's module evaluation had not finished when the event loop emptied (and nothing called
 *  process.exit): it awaits a promise nothing will settle. node exits 13 on such a file, whether the await
 *  is in the file or in a module it imports; Node 20 says no more, and the await's position is not
 *  reachable from here (Node 22+ prints it only for its own entry module), so the message names the file. */
function unsettledTopLevel(r: Running): FailureInfo | undefined {
  if (topLevelDone || exitCall) return undefined;
  return {
    message: "The file's top-level code never finished (awaiting a promise that never settles): node would exit with code 13",
    code: "unsettled-await",
    location: r.fileLocation,
  };
}

function endPlainScript(r: Running, code: number): void {
  const durationMs = nowMs() - r.started;
  if (!failure && exitCall && exitCall.code !== 0) recordFailure({ message: `process.exit(${exitCall.code}) was called`, code: "exit", location: exitCall.location });
  const unsettled = failure ? undefined : unsettledTopLevel(r);
  if (unsettled) recordFailure(unsettled);
  if (!failure && code !== 0) recordFailure({ message: `The process exited with code ${code}`, code: "exit" });
  emit({ type: "test-end", test: r.fileTest, status: failure ? "failed" : "passed", durationMs, location: r.fileLocation, failure });
}

function endNodeTestFile(r: Running, code: number): void {
  // The tests that ran keep their results; the file fails as node fails it (exit code 13).
  const unsettled = unsettledTopLevel(r);
  if (unsettled && !fileFailEmitted) {
    fileFailEmitted = true;
    failure ??= unsettled;
    emit({ type: "fail", failure: unsettled });
  }
  if (!r.tracker.ended) {
    // The runner had not reported every test: whatever ended the process cut the file short. Tests that
    // finished keep their results; the ones still queued or running fail, and so does the file.
    const why = exitCall ? `process.exit(${exitCall.code}) was called` : `the process exited with code ${code}`;
    for (const t of r.tracker.unfinished()) {
      const f: FailureInfo = { message: `did not finish: ${why}`, code: "exit", location: exitCall?.location };
      emit({ type: "test-start", test: t.test, location: t.location });
      emit({ type: "test-end", test: t.test, status: "failed", durationMs: 0, location: t.location, failure: f });
    }
    if (exitCall || !fileFailEmitted) {
      fileFailEmitted = true;
      emit({ type: "fail", failure: { message: `${exitCall ? `process.exit(${exitCall.code}) was called` : `The process exited (code ${code})`} before the test runner had reported every test`, code: "exit", location: exitCall?.location } });
    }
    return;
  }
  if (code !== 0 && r.tracker.failedTests === 0 && !fileFailEmitted) {
    emit({ type: "fail", failure: failure ?? { message: exitCall ? `process.exit(${exitCall.code}) was called` : `The process exited with code ${code}`, code: "exit", location: exitCall?.location } });
  }
}

/** Runs the bundle `metaFile` describes: the file's own hooks, then its import. */
function runFile(metaFile: string): void {
  // What a child started for this file had on its command line (the file sees the same process.argv).
  process.argv.splice(2, process.argv.length - 2, metaFile);
  let meta: BundleMeta;
  try {
    meta = JSON.parse(readFileSync(metaFile, "utf8")) as BundleMeta;
  } catch (error) {
    // Not the file's doing: say so, rather than leave the parent to guess from a missing report.
    emit({ type: "fail", failure: { message: `The harness could not read the file's bundle (${metaFile}): ${(error as Error).message}`, code: "bundle" } });
    emit({ type: "done", exitCode: 1 });
    return realExit(1);
  }
  const user = new UserCode(meta.userFiles, meta.bundle);
  const r: Running = {
    meta, user, fileTest: basename(meta.entry), fileLocation: { file: meta.entry, line: 1, column: 1 },
    plain: !meta.usesNodeTest, tracker: new NodeTestTracker(user), started: nowMs(),
  };
  running = r;

  const uncaught = (error: unknown, origin: string): FailureInfo => {
    const rejection = origin === "unhandledRejection";
    return failureFrom(error, user, rejection ? "unhandled-rejection" : "uncaught-exception", rejection ? "Unhandled promise rejection: " : "");
  };
  if (r.plain) {
    // A plain script ends at its first uncaught error, as under node, reported once as a failure (our
    // handler also keeps Node from printing it again to stderr).
    process.on("uncaughtException", (error, origin) => {
      recordFailure(uncaught(error, origin));
      realExit(1);
    });
    emit({ type: "test-start", test: r.fileTest, location: r.fileLocation });
  } else {
    tapTestsStream((event) => {
      modelCalls.onTestEvent(event);
      r.tracker.onEvent(event, "stream");
    }, () => r.tracker.onRunnerEnd("stream"));
    // node:test attributes errors thrown while a test runs to that test; file-level ones are reported at exit.
    process.on("uncaughtExceptionMonitor", (error, origin) => {
      failure ??= uncaught(error, origin);
    });
  }

  import(pathToFileURL(meta.bundle).href).then(
    () => {
      topLevelDone = true;
    },
    (error: unknown) => {
      topLevelDone = true;
      const f = failureFrom(error, user, "uncaught-exception");
      if (r.plain) recordFailure(f);
      else if (!fileFailEmitted) {
        fileFailEmitted = true;
        emit({ type: "fail", failure: f });
      }
      failure ??= f;
      process.exitCode = 1;
    },
  );
}

// The parent closed the control pipe before handing over a file: it discarded this child, or is gone.
readControl(runFile, () => realExit(0));
