// agent-lens run's command line: its usage text and the options read into RunArgs, the settings file's
// values under them (command-line values win; the file's unusable values are said on stderr).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { HEAP_RULE, MAX_TIMEOUT_SECONDS, parseDecimal, TIMEOUT_RULE, validHeapMb, validMaxRssMb, validTimeoutMs } from "@agent-lens/harness";
import type { RecordingsMode, RuntimeMode } from "@agent-lens/protocol";
import { DEFAULT_MODEL_PRICES, DEFAULT_TEST_GLOBS, DEFAULT_TIMEOUT_SECONDS, settingsOfFolder, type FileSettings, type ModelPrice } from "@agent-lens/settings";
import { DEFAULT_COVERAGE_DIR } from "./coverage/session";
import { chooseReporters, type ReporterChoice } from "./reporters/options";
import { recordingChoices, RUN_OPTIONS } from "./run-early";

export const USAGE = `usage: agent-lens run [files, folders or globs...] [options]

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

export interface RunArgs {
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

/** Command-line values win over the settings file's; the file's unusable values go to `notes` (said on stderr). */
export function parseRunArgs(argv: string[], cwd: string, notes: string[]): RunArgs | "help" {
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
