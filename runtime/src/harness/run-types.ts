// What runEvalFile (run-file.ts) takes and gives: its options, the run's handle and the file's result.
// The harness's public API names them (index.ts); the run's steps (run-bundle, run-child, run-channel,
// run-verdict) share them.
import type { EndStatus, FailureInfo, HarnessEvent, RecordingsMode, RuntimeChoice, RuntimeMode } from "@agent-lens/protocol";
import { DEFAULT_TIMEOUT_SECONDS } from "@agent-lens/settings/defaults";
import type { HarnessChild } from "./child-process";
import type { RecordingWrite } from "./recordings-file";
import type { ModelCallSummary } from "./recordings-run";
import type { WarmChildren } from "./warm-children";

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
