// runEvalFile's second step (run-file.ts): the process that runs the bundled file — the one started early
// for it (CLI), a warm one (extension), or a new one — and the run's `start` event with its pid.
import { HarnessChild, mismatch, type ChildSpec } from "./child-process";
import { warnCache, type BundledRun } from "./run-bundle";
import type { RunLog } from "./run-log";
import type { RunOptions } from "./run-types";

export function childSpecOf(options: RunOptions, run: BundledRun): ChildSpec {
  const { meta } = run.bundled;
  return { cwd: run.workspace, env: run.env, heapMb: run.heapMb, nodeTest: meta.usesNodeTest, cacheDir: run.cache.dir, ...(meta.usesNodeTest && options.testNamePatterns?.length ? { testNamePatterns: options.testNamePatterns } : {}) };
}

export function takeChild(options: RunOptions, run: BundledRun, spec: ChildSpec, log: RunLog): HarnessChild {
  const { early, assets } = run;
  const libraries = run.bundled.meta.libs?.entries ?? [];
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
  log.processInfo = { warm, early: startedEarly || undefined, note: warm || startedEarly ? undefined : childNote, headStartMs: performance.now() - child.startedAt };
  log.say({ type: "start", file: log.file, pid: child.pid, time: new Date().toISOString(), runtime: run.runtime });
  warnCache(log, run.cache);
  return child;
}
