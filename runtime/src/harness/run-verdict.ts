// runEvalFile's last step (run-file.ts): the file's status from how its child ended (ChildOutcome), the
// file-level failures said (a channel written to by something else, processes left running, drift outside
// any test), tests that never ended closed, the recording written, and the `end` event. Green only when
// the process exited 0 having said it was done and nothing went wrong.
import type { EndStatus, FailureInfo, RuntimeChoice } from "@agent-lens/protocol";
import { silentChildFailure } from "./channel-trouble";
import type { ChildExit } from "./child-process";
import type { ChildOutcome } from "./run-channel";
import type { RunLog } from "./run-log";
import type { FileRunResult } from "./run-types";

/** Whether the child died of V8's heap limit: it was aborted (SIGABRT, or exit code 134 where an abort is
 *  reported as one) and V8's fatal line is on its raw stderr, which only native code, direct fd 2 writes and
 *  grandchildren reach (console output goes over the channel). The line alone proves nothing: a passing
 *  file may print it. */
function diedOfHeap(exit: ChildExit, stderrTail: string): boolean {
  const aborted = exit.signal === "SIGABRT" || exit.code === 134;
  return aborted && /^FATAL ERROR: .*(Reached heap limit|heap out of memory)/m.test(stderrTail);
}

export interface VerdictContext {
  timeoutMs: number;
  heapMb: number;
  maxRssMb: number | undefined;
  runtime: Record<string, RuntimeChoice>;
  bundleInfo: FileRunResult["bundle"];
}

/** How the process ended, as a status and the failure that says why (none: it ended on its own). */
function howItEnded(o: ChildOutcome, log: RunLog, c: VerdictContext): { status: EndStatus; failure?: FailureInfo } {
  const { exit } = o;
  if (exit.error) return { status: "crashed", failure: { message: `Could not start the child process: ${exit.error.message}`, code: "spawn" } };
  if (o.cancelled) return { status: "cancelled", failure: { message: "The run was cancelled", code: "cancelled" } };
  if (o.timedOut) return { status: "timeout", failure: { message: `Timed out after ${c.timeoutMs / 1000} s: the file did not finish (an endless loop, or a promise, timer or server that never ends)`, code: "timeout" } };
  if (o.overMemoryMb !== undefined) return { status: "crashed", failure: { message: `Ran out of memory: the file used more than ${c.maxRssMb} MB of memory (--max-rss; ${Math.round(o.overMemoryMb)} MB resident when it was stopped)`, code: "memory" } };
  if (diedOfHeap(exit, o.stderrTail)) return { status: "crashed", failure: { message: `Ran out of memory: the file used more than the heap limit of ${c.heapMb} MB`, code: "heap" } };
  if (exit.signal) return { status: "crashed", failure: { message: `The process was killed by ${exit.signal}`, code: "signal" } };
  if (o.doneExitCode === undefined) {
    // The process ended on its own, yet the child never said so: its report cannot be complete.
    const failure = silentChildFailure(o.channelOpened, exit.code, o.stderrTail);
    log.forward({ type: "fail", failure });
    return { status: "passed", failure };
  }
  return { status: "passed" };
}

export function verdict(o: ChildOutcome, log: RunLog, c: VerdictContext): FileRunResult {
  let { status, failure: fileFailure } = howItEnded(o, log, c);
  const tampered = o.trouble.failure();
  if (tampered) {
    log.forward({ type: "fail", failure: tampered });
    fileFailure ??= tampered;
  }
  const { survivors } = o;
  if (survivors.length) {
    const list = survivors.map((p) => `  pid ${p.pid}: ${p.command.slice(0, 200)}`).join("\n");
    const leftover: FailureInfo = {
      message: `The file left ${survivors.length} child process${survivors.length === 1 ? "" : "es"} running after it finished; Agent Lens killed ${survivors.length === 1 ? "it" : "them"}:\n${list}`,
      code: "leftover-process",
    };
    log.forward({ type: "fail", failure: leftover });
    fileFailure ??= leftover;
  }

  let heldFileEnd = o.heldFileEnd;
  if (heldFileEnd) {
    if (heldFileEnd.status !== "failed" && fileFailure) heldFileEnd = { ...heldFileEnd, status: "failed", failure: fileFailure };
    log.forward(heldFileEnd);
  }
  // Drift of code outside any test fails the file; a record run that ran to its end writes the recording.
  for (const failure of log.recordings.unclaimed()) log.forward({ type: "fail", failure });
  log.recording = log.recordings.write(log.tests, status === "passed" && o.doneExitCode !== undefined && !tampered ? undefined : status);
  if (log.recording) log.say({ type: "recording", ...log.recording });
  const skippedByCancel = status === "cancelled";
  for (const [test, location] of log.unfinished()) log.endTest(test, skippedByCancel ? "skipped" : "failed", fileFailure ?? { message: "The test did not finish: the process exited", code: "exit" }, location);
  // File-level trouble with no test to carry it gets a test named after the file.
  const carried = log.tests.some((t) => t.status === "failed");
  const fileLevel = fileFailure ?? (log.failures.length ? log.failures[0] : undefined);
  if (fileLevel && !carried && !skippedByCancel) log.endTest(log.fileTest, "failed", fileLevel, log.fileLocation);
  else if (!carried && o.exit.code !== 0 && !skippedByCancel && status === "passed") {
    // Green only with exit code 0, whatever the tests said.
    const said = o.stderrTail.trim().split("\n").slice(-8).join("\n");
    log.endTest(log.fileTest, "failed", { message: `The process exited with code ${o.exit.code}${said ? `:\n${said}` : ""}`, code: "exit" }, log.fileLocation);
  }
  if (status === "passed" && (log.failures.length || fileFailure)) status = "failed";
  return log.finish(status, c.runtime, c.bundleInfo);
}
