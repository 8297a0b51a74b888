// agent-lens run [files or globs...]: runs eval files in isolation through the harness and reports.
import { watch, type FSWatcher } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { recordingChoices, RUN_OPTIONS, type EarlyChild } from "./run-early";
import {
  defaultCacheDir, discoverFiles, formatFileResult, HEAP_RULE, MAX_TIMEOUT_SECONDS, parseDecimal, runEvalFile, shardOf, summaryLine,
  TIMEOUT_RULE, usableCacheDir, validHeapMb, validMaxRssMb, validTimeoutMs, workspaceOf, type FileRunResult,
} from "@agent-lens/harness";
import type { HarnessEvent, RecordingsMode, RuntimeMode } from "@agent-lens/protocol";
import { DEFAULT_MODEL_PRICES, DEFAULT_TEST_GLOBS, DEFAULT_TIMEOUT_SECONDS, settingsOfFolder, type FileSettings, type ModelPrice } from "@agent-lens/settings";
import { DEFAULT_COVERAGE_DIR, startCoverageModel } from "./coverage/session";
import { deterministicFiles } from "./repeat/report";
import { FileRecorder, sortRecords, type FileRecord } from "./run-record";
import { reportAfterRun } from "./run-reports";
import { chooseReporters, type ReporterChoice } from "./reporters/options";

const USAGE = `usage: agent-lens run [files, folders or globs...] [options]

Runs each eval file in its own Node process (default: the files matching agentLens.testGlobs,
${DEFAULT_TEST_GLOBS.join(", ")} unless .vscode/settings.json says otherwise, skipping node_modules and
.gitignored files). The working directory's .vscode/settings.json (or --config) also gives the defaults of
--timeout (agentLens.run.timeoutSeconds) and --runtime (agentLens.run.runtime), as in the editor.

options:
  --jobs N            files run at once (default: number of cores)
  --shard i/n         run only the i-th of n slices of the file list (for CI)
  --timeout SECONDS   wall-clock limit per file (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS})
  --heap MB           V8 heap limit per file, a whole number (default 2048, at least 16); Buffers and
                      native memory are outside it: see --max-rss
  --max-rss MB        end a file whose process holds more than MB of memory (resident set, sampled
                      every 200 ms; default: no limit)
  --runtime MODE      auto (default): the workspace's @statelyai/agent / @falai/agent when it installs
                      one with the documented API, else ours; bundled: always ours; workspace: only the
                      workspace's
  --record            run every model call live (as the file configured it) and write each file's
                      recording, __recordings__/<file name>.json beside it (only the tests that ran)
  --replay-only       make no live model call: every call is answered from the recording, and a call
                      without one fails the run (for CI; agentLens.run.recordings: "replay-only")
                      Without either: a call whose test has a recording is answered from it, others
                      run as written, and nothing is written. A replayed call whose input changed, a
                      call the recording lacks and a recorded call that never came fail the test.
  --env-file FILE     a dotenv file whose variables every file's process gets (API keys; the
                      environment's own win; default agentLens.run.envFile). Never in any output.
  --config FILE       a VS Code settings file to read instead of .vscode/settings.json
  --json              print the event stream, one JSON object per line, instead of the report
  --watch             re-run files when they or their imports change
  --no-color          plain text report
  --coverage          agent coverage: which states, transitions, steps and branches the evals reached;
                      prints a table and writes coverage.json and lcov.info into the coverage folder
  --coverage-dir DIR  that folder (default ${DEFAULT_COVERAGE_DIR}; implies --coverage)
  --coverage-min N    fail (exit 1) when coverage is under N percent (implies --coverage)
  --repeat N          run each file N times (a file whose run made no live model call runs once) and
                      report per test its pass rate with a 95% interval, where its runs ended, and
                      FLAKY when it both passed and failed
  --pass-rate R       with --repeat: a test passes when at least this share of its runs passed (0 to 1;
                      default: all of them)
  --reporter NAME     text (default), junit, blob or github; repeatable, a list replaces the default:
                      junit: the JUnit XML report (to --output-file, else stdout); blob: everything a
                      report is made from, for merge-reports (to --output-file, else
                      agent-lens-reports/blob[-i-n].json); github: GitHub Actions annotations (on by
                      themselves when GITHUB_ACTIONS=true)
  --output-file FILE  the file of the junit or the blob report
  -h, --help          this text
`;

interface RunArgs {
  patterns: string[];
  globs: string[];
  jobs: number;
  shard?: { index: number; count: number };
  timeoutMs: number;
  heapMb?: number;
  maxRssMb?: number;
  runtime: RuntimeMode;
  json: boolean;
  watch: boolean;
  color: boolean;
  /** --coverage: the folder to write into (relative to the working directory) and the minimum percent. */
  coverage?: { dir: string; min?: number };
  /** --repeat (1: no repeats) and --pass-rate. */
  repeat: number;
  passRate?: number;
  /** The text report on stdout (a reporter, and no --json). */
  text: boolean;
  reporters: ReporterChoice;
  recordings: RecordingsMode;
  envFile?: string;
  prices: Record<string, ModelPrice>;
}

class UsageError extends Error {}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Command-line values win over the settings file's; the file's unusable values go to `notes` (said on stderr). */
function parse(argv: string[], cwd: string, notes: string[]): RunArgs | "help" {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: RUN_OPTIONS });
  if (values.help) return "help";
  const folder: FileSettings = settingsOfFolder(cwd, values.config !== undefined ? resolve(cwd, values.config) : undefined);
  if (values.config !== undefined && !folder.file) throw new UsageError(folder.problems[0] ?? `--config ${values.config}: cannot be read`);
  notes.push(...folder.problems);
  const int = (name: string, text: string | undefined, min: number): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} needs a number ≥ ${min}, got "${text}"`);
    return n;
  };
  // The limits are checked as the harness checks them, so what is accepted here means what it says.
  const limit = (name: string, text: string | undefined, fraction: boolean, valid: (n: number) => boolean, rule: string): number | undefined => {
    if (text === undefined) return undefined;
    const n = parseDecimal(text, fraction);
    if (!valid(fraction ? n * 1000 : n)) throw new UsageError(`--${name} needs ${rule}, got "${text}"`);
    return n;
  };
  let shard: RunArgs["shard"];
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard needs i/n with 1 ≤ i ≤ n, got "${values.shard}"`);
    shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  let coverage: RunArgs["coverage"];
  if (values.coverage || values["coverage-dir"] !== undefined || values["coverage-min"] !== undefined) {
    const min = values["coverage-min"];
    if (min !== undefined && !/^\d+(\.\d+)?$/.test(min)) throw new UsageError(`--coverage-min needs a percent (a number from 0), got "${min}"`);
    if (values.watch) throw new UsageError("--coverage cannot be combined with --watch");
    coverage = { dir: values["coverage-dir"] ?? DEFAULT_COVERAGE_DIR, ...(min !== undefined ? { min: Number(min) } : {}) };
  }
  const repeat = int("repeat", values.repeat, 1) ?? 1;
  if (!Number.isInteger(repeat) || repeat > 10_000) throw new UsageError(`--repeat needs a whole number from 1 to 10000, got "${values.repeat}"`);
  const passRate = values["pass-rate"] === undefined ? undefined : Number(values["pass-rate"]);
  if (passRate !== undefined && !(/^\d*\.?\d+$/.test(values["pass-rate"]!) && passRate >= 0 && passRate <= 1)) throw new UsageError(`--pass-rate needs a share from 0 to 1 (0.8), got "${values["pass-rate"]}"`);
  if (passRate !== undefined && repeat === 1) throw new UsageError("--pass-rate needs --repeat N (N > 1)");
  if (repeat > 1 && values.watch) throw new UsageError("--repeat cannot be combined with --watch");
  let reporters: ReporterChoice;
  try {
    reporters = chooseReporters(values.reporter, values["output-file"], shard);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.watch && (values.reporter?.length || values["output-file"] !== undefined)) throw new UsageError("--reporter and --output-file cannot be combined with --watch");
  if (values.json && reporters.junit && !reporters.junit.file) throw new UsageError("--json and --reporter junit both want stdout: give the JUnit report a file with --output-file");
  const runtime = (values.runtime ?? folder.settings.run.runtime) as RuntimeMode;
  if (!["auto", "bundled", "workspace"].includes(runtime)) throw new UsageError(`--runtime must be auto, bundled or workspace, got "${values.runtime}"`);
  if (values.record && values["replay-only"]) throw new UsageError("--record and --replay-only exclude each other (one runs every model call live, the other none)");
  const choices = recordingChoices(values, folder.settings, cwd);
  if (choices.envFile !== undefined && !existsSync(choices.envFile)) {
    throw new UsageError(`${values["env-file"] !== undefined ? "--env-file" : "agentLens.run.envFile"} names ${choices.envFile}, which does not exist`);
  }
  return {
    patterns: positionals,
    globs: folder.settings.testGlobs,
    jobs: Math.floor(int("jobs", values.jobs, 1) ?? availableParallelism()),
    shard,
    timeoutMs: (limit("timeout", values.timeout, true, validTimeoutMs, TIMEOUT_RULE) ?? folder.settings.run.timeoutSeconds) * 1000,
    heapMb: limit("heap", values.heap, false, validHeapMb, HEAP_RULE),
    maxRssMb: limit("max-rss", values["max-rss"], false, validMaxRssMb, HEAP_RULE),
    runtime,
    json: values.json ?? false,
    watch: values.watch ?? false,
    color: !values["no-color"] && !process.env.NO_COLOR && process.stdout.isTTY === true,
    ...(coverage ? { coverage } : {}),
    repeat,
    ...(passRate !== undefined ? { passRate } : {}),
    text: reporters.text && !values.json,
    reporters,
    ...choices,
    prices: { ...DEFAULT_MODEL_PRICES, ...folder.settings.run.modelPrices },
  };
}

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
async function runFiles(files: string[], args: RunArgs, root: string, active: Set<() => void>, early?: EarlyChild, runs = 1, firstRun = 1): Promise<{ totals: Totals; results: FileRunResult[]; records: FileRecord[] }> {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
  const results: FileRunResult[] = [];
  const records: FileRecord[] = [];
  const repeated = args.repeat > 1;
  const items = files.flatMap((file) => Array.from({ length: runs }, (_, i) => ({ file, run: firstRun + i })));
  let cancelled = false;
  await pool(items, args.jobs, async ({ file, run: k }) => {
    if (cancelled && repeated) return; // after a cancel no further repetition starts
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
    args = parse(argv, root, notes);
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
  const stop = () => {
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
  const first = await runFiles(files, args, root, active, early);
  let records = first.records;
  // --repeat: a file whose first run made no live model call is not run again (it would give the same);
  // nothing runs again after a cancel (Ctrl+C, a signal)
  const deterministic = args.repeat > 1 ? deterministicFiles(first.records) : new Set<string>();
  if (args.repeat > 1 && !first.results.some((r) => r.status === "cancelled")) records = sortRecords([...records, ...(await runFiles(files.filter((f) => !deterministic.has(f)), args, root, active, undefined, args.repeat - 1, 2)).records]);
  if (args.text && args.repeat === 1) process.stdout.write(`${summaryLine(first.totals)}\n`);
  const reportsOk = await reportAfterRun(records, {
    ...args.reporters, root, json: args.json, text: args.text,
    ...(args.coverage ? { coverage: args.coverage } : {}), repeat: args.repeat, ...(args.passRate !== undefined ? { passRate: args.passRate } : {}), deterministic,
  }, model);
  // under --repeat the tests' summaries decide (a flaky test fails unless --pass-rate lets it pass)
  const runsOk = args.repeat > 1 || (first.totals.failed === 0 && first.results.every((r) => r.status === "passed"));
  if (!args.watch) return reportsOk && runsOk ? 0 : 1;
  return watchLoop(args, root, select, first.results, active);
}

/**
 * --watch: re-runs an eval file when it or one of its own source files changes (debounced). Watches the
 * folders of the eval files and of their sources (not recursively: a recursive watch would walk
 * node_modules), plus the root for new eval files.
 */
function watchLoop(args: RunArgs, root: string, select: () => string[], initial: FileRunResult[], active: Set<() => void>): Promise<number> {
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
      const { totals, results } = await runFiles(targets, args, root, active);
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
