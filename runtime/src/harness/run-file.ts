// runEvalFile: bundle one eval file, run it in a child Node process with a time limit, a heap limit and
// cancellation, and stream its events. No VS Code types: the CLI, the code lenses and the Test Explorer
// all call this. A run is four steps, each in its own file, all writing to one RunLog (run-log.ts):
// bundle (run-bundle.ts) → child (run-child.ts) → channel (run-channel.ts) → verdict (run-verdict.ts).
import { resolve } from "node:path";
import type { HarnessEvent } from "@agent-lens/protocol";
import { DEFAULT_HEAP_MB } from "@agent-lens/protocol/limits";
import { EventQueue } from "./event-queue";
import { bundleRun } from "./run-bundle";
import { runOnChannel } from "./run-channel";
import { childSpecOf, takeChild } from "./run-child";
import { RunLog } from "./run-log";
import type { FileRunResult, HarnessRun, RunOptions } from "./run-types";
import { verdict } from "./run-verdict";
import { workspaceOf } from "./workspace";

export { DEFAULT_HEAP_MB, workspaceOf };

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
  const log = new RunLog(resolve(options.file), options.recordings ?? "auto", performance.now(), emit);
  const bundled = await bundleRun(options, log, cancelled);
  if ("result" in bundled) return bundled.result;
  const { run } = bundled;
  const { meta, metaFile } = run.bundled;
  const spec = childSpecOf(options, run);
  const child = takeChild(options, run, spec, log);
  const outcome = await runOnChannel(child, metaFile, log, { timeoutMs: run.timeoutMs, maxRssMb: options.maxRssMb, usesNodeTest: meta.usesNodeTest, cancelled, onCancel });
  const done = verdict(outcome, log, { timeoutMs: run.timeoutMs, heapMb: run.heapMb, maxRssMb: options.maxRssMb, runtime: run.runtime, bundleInfo: run.bundleInfo });
  // The next run's child starts behind this one, once the caller has had the result (only where the
  // caller keeps warm children).
  const warmChildren = options.warm;
  // (for the whole file: a run of a few tests is no guess at the next run)
  const { testNamePatterns: _only, ...whole } = spec;
  if (warmChildren) setTimeout(() => warmChildren.prepare(whole, meta.libs), 0);
  return done;
}
