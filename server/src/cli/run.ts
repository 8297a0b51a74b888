// agent-lens run [files or globs...]: runs eval files in isolation through the harness and reports (the
// command line: run-args.ts).
import { watch, type FSWatcher } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { EarlyChild } from "./run-early";
import { defaultCacheDir, discoverFiles, formatFileResult, runEvalFile, shardOf, summaryLine, usableCacheDir, workspaceOf, type FileRunResult } from "@agent-lens/harness";
import type { HarnessEvent } from "@agent-lens/protocol";
import { startCoverageModel } from "./coverage/session";
import { deterministicFiles } from "./repeat/report";
import { parseRunArgs, USAGE, type RunArgs } from "./run-args";
import { FileRecorder, sortRecords, type FileRecord } from "./run-record";
import { reportAfterRun } from "./run-reports";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

async function pool<T>(items: T[], jobs: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

/** Runs the files (`runs` times each, numbered from `firstRun`, under --repeat). */
async function runFiles(files: string[], args: RunArgs, root: string, active: Set<() => void>, stopped: () => boolean, early?: EarlyChild, runs = 1, firstRun = 1): Promise<{ totals: Totals; results: FileRunResult[]; records: FileRecord[] }> {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
  const results: FileRunResult[] = [];
  const records: FileRecord[] = [];
  const repeated = args.repeat > 1;
  const items = files.flatMap((file) => Array.from({ length: runs }, (_, i) => ({ file, run: firstRun + i })));
  let cancelled = false;
  await pool(items, args.jobs, async ({ file, run: k }) => {
    // After a cancel no further repetition starts; a file still queued when the command was stopped
    // (Ctrl+C, a signal) does not start either, and is reported cancelled (not a quiet gap).
    if ((cancelled || stopped()) && repeated && k !== firstRun) return;
    const recorder = new FileRecorder(args.coverage !== undefined || repeated || args.reporters.blob !== undefined);
    const onEvent = (e: HarnessEvent) => {
      if (args.json) process.stdout.write(`${JSON.stringify({ ...e, file: "file" in e ? e.file : file, ...(repeated ? { run: k } : {}) })}\n`);
      recorder.onEvent(e);
    };
    // The child starts while the bundle cache is checked (or the bundle built), or started already (run-early.ts).
    const run = runEvalFile({
      file, workspace: workspaceOf(file), timeoutMs: args.timeoutMs, heapMb: args.heapMb, maxRssMb: args.maxRssMb, runtime: args.runtime, recordings: args.recordings,
      ...(args.envFile !== undefined ? { envFile: args.envFile } : {}), onEvent, startEarly: true, earlyChild: early?.take(file),
    });
    if (stopped()) run.cancel(); // before its first step: the harness ends it as cancelled, nothing built or started
    active.add(run.cancel);
    const result = await run.result.finally(() => active.delete(run.cancel));
    results.push(result);
    records.push(recorder.record(result, repeated ? k : undefined));
    if (result.status === "cancelled") cancelled = true;
    totals.passed += result.summary.passed;
    totals.failed += result.summary.failed;
    totals.skipped += result.summary.skipped;
    if (args.text) process.stdout.write(`${repeated ? `${formatFileResult(result, "", root, { color: args.color }).split("\n")[0]} · run ${k}/${args.repeat}` : formatFileResult(result, recorder.consoleText, root, { color: args.color, prices: args.prices })}\n`);
  });
  return { totals, results, records: sortRecords(records) };
}

/** `agent-lens run`; `early` is the child run-early.ts started for the one file named, if it did (the
 *  caller ends it when no run takes it). */
export async function runRun(argv: string[], early?: EarlyChild): Promise<number> {
  let args: RunArgs | "help";
  const root = process.cwd();
  const notes: string[] = [];
  try {
    args = parseRunArgs(argv, root, notes);
  } catch (error) {
    process.stderr.write(`agent-lens run: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  for (const note of notes) process.stderr.write(`agent-lens run: ${note}\n`);
  // A closed stdout (agent-lens run | head) ends the report quietly; the runs are still cleaned up.
  process.stdout.on("error", () => undefined);
  // A refused cache folder is said once here (each file's run also carries it as console output).
  const cache = usableCacheDir(defaultCacheDir());
  if (cache.warning) process.stderr.write(`${cache.warning}\n`);
  const globs = args.globs;
  const select = () => {
    const all = discoverFiles(root, args.patterns, globs);
    return args.shard ? shardOf(all, args.shard.index, args.shard.count) : all;
  };
  const files = select();
  const active = new Set<() => void>();
  let stopRequested = false;
  const stopped = () => stopRequested;
  const stop = () => {
    stopRequested = true;
    for (const cancel of active) cancel();
  };
  // Ctrl+C, a kill, or the terminal closing (SIGHUP): the running files are cancelled (their processes
  // killed) and the command ends with its report. A SIGKILL cannot be caught: the harness's supervisor
  // ends the runs then (runtime/src/harness/lifeline.ts).
  for (const signal of STOP_SIGNALS) process.once(signal, stop);

  if (!files.length && !args.watch) {
    process.stderr.write(`agent-lens run: no eval files matched${args.patterns.length ? ` ${args.patterns.join(" ")}` : ` (${globs.join(", ")})`}\n`);
    process.stdout.write(`${summaryLine({ passed: 0, failed: 0, skipped: 0 })}\n`);
    return 1;
  }
  // The analysis for coverage starts now, beside the runs (a failure is said and fails the run).
  const model = args.coverage ? startCoverageModel([...new Set([root, ...files.map(workspaceOf)])], files, cache.warning ? undefined : cache.dir) : undefined;
  model?.catch(() => undefined);
  const first = await runFiles(files, args, root, active, stopped, early);
  let records = first.records;
  // --repeat: a file whose first run made no live model call is not run again (it would give the same);
  // nothing runs again after a cancel (Ctrl+C, a signal)
  const deterministic = args.repeat > 1 ? deterministicFiles(first.records) : new Set<string>();
  if (args.repeat > 1 && !first.results.some((r) => r.status === "cancelled")) records = sortRecords([...records, ...(await runFiles(files.filter((f) => !deterministic.has(f)), args, root, active, stopped, undefined, args.repeat - 1, 2)).records]);
  if (args.text && args.repeat === 1) process.stdout.write(`${summaryLine(first.totals)}\n`);
  const reportsOk = await reportAfterRun(records, {
    ...args.reporters, root, json: args.json, text: args.text,
    ...(args.coverage ? { coverage: args.coverage } : {}), repeat: args.repeat, ...(args.passRate !== undefined ? { passRate: args.passRate } : {}), deterministic,
  }, model);
  // under --repeat the tests' summaries decide (a flaky test fails unless --pass-rate lets it pass)
  const runsOk = args.repeat > 1 || (first.totals.failed === 0 && first.results.every((r) => r.status === "passed"));
  if (!args.watch) return reportsOk && runsOk ? 0 : 1;
  return watchLoop(args, root, select, first.results, active, stopped);
}

/**
 * --watch: re-runs an eval file when it or one of its own source files changes (debounced). Watches the
 * folders of the eval files and of their sources (not recursively: a recursive watch would walk
 * node_modules), plus the root for new eval files.
 */
function watchLoop(args: RunArgs, root: string, select: () => string[], initial: FileRunResult[], active: Set<() => void>, stopped: () => boolean): Promise<number> {
  const inputsOf = new Map(initial.map((r) => [r.file, new Set(r.inputs)]));
  const changed = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const follow = () => {
    const dirs = new Set([root, ...[...inputsOf.values()].flatMap((set) => [...set].map((f) => dirname(f)))]);
    for (const dir of dirs) {
      if (watchers.has(dir) || /[\\/]node_modules([\\/]|$)/.test(dir)) continue;
      try {
        watchers.set(dir, watch(dir, (_event, name) => {
          if (!name) return;
          changed.add(resolve(dir, name.toString()));
          clearTimeout(timer);
          timer = setTimeout(rerun, 150);
        }));
      } catch {
        // the folder is gone
      }
    }
  };
  const rerun = () => {
    const paths = [...changed];
    changed.clear();
    const current = select();
    const targets = current.filter((f) => paths.includes(f) || paths.some((p) => inputsOf.get(f)?.has(p)));
    if (!targets.length) return;
    running = running.then(async () => {
      if (!args.json) process.stdout.write(`\nre-running ${targets.map((f) => relative(root, f)).join(", ")}\n`);
      const { totals, results } = await runFiles(targets, args, root, active, stopped);
      for (const r of results) inputsOf.set(r.file, new Set(r.inputs));
      follow();
      if (!args.json) process.stdout.write(`${summaryLine(totals)}\n`);
    });
  };
  follow();
  if (!args.json) process.stdout.write("watching for changes (Ctrl+C to stop)\n");
  return new Promise((done) => {
    const finish = () => {
      for (const w of watchers.values()) w.close();
      clearTimeout(timer);
      for (const cancel of active) cancel();
      void running.then(() => done(0));
    };
    for (const signal of STOP_SIGNALS) process.once(signal, finish);
  });
}
