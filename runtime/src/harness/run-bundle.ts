// runEvalFile's first step (run-file.ts): the options checked, the child's environment made, the file
// bundled (with a child started early beside it when asked). A file that cannot run ends here, with its
// `start` and `end` events and a failed test named after it; a cancel before any process started too.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { RuntimeChoice } from "@agent-lens/protocol";
import { DEFAULT_HEAP_MB, limitsProblem } from "@agent-lens/protocol/limits";
import { harnessAssets, type HarnessAssets } from "./assets";
import { bundleEvalFile, type BundleOutcome } from "./bundle";
import { defaultCacheDir, usableCacheDir, type CacheFolder } from "./cache";
import type { HarnessChild } from "./child-process";
import { startEarlyChild } from "./early-child";
import { childEnvironment } from "./run-env";
import type { RunLog } from "./run-log";
import { DEFAULT_TIMEOUT_MS, type FileRunResult, type RunOptions } from "./run-types";
import { workspaceOf } from "./workspace";

/** A bundled file, ready for a child. */
export interface BundledRun {
  workspace: string;
  timeoutMs: number;
  heapMb: number;
  env: Record<string, string | undefined>;
  cache: CacheFolder;
  assets: HarnessAssets;
  bundled: Extract<BundleOutcome, { ok: true }>;
  bundleInfo: FileRunResult["bundle"];
  runtime: Record<string, RuntimeChoice>;
  /** The child started early for this file (by the CLI, or startEarly), to use or end. */
  early: HarnessChild | undefined;
}

/** The cache folder's warning (a refused folder: where this process builds instead), once on stderr. */
export function warnCache(log: RunLog, cache: CacheFolder): void {
  if (cache.warning) log.forward({ type: "console", stream: "stderr", text: `${cache.warning}\n` });
}

export async function bundleRun(options: RunOptions, log: RunLog, cancelled: () => boolean): Promise<{ result: FileRunResult } | { run: BundledRun }> {
  const file = log.file;
  const workspace = resolve(options.workspace ?? workspaceOf(file));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const heapMb = options.heapMb ?? DEFAULT_HEAP_MB;
  const badOption = limitsProblem(timeoutMs, heapMb, options.maxRssMb);
  const childEnv = childEnvironment(process.env, { workspace, ...(options.env ? { env: options.env } : {}), ...(options.envFile !== undefined ? { envFile: options.envFile } : {}), ...(options.recordings ? { recordings: options.recordings } : {}) });
  if (badOption || !existsSync(file) || childEnv.problem) {
    if (options.earlyChild) await options.earlyChild.discard();
    log.say({ type: "start", file, time: new Date().toISOString(), runtime: {} });
    if (childEnv.problem) return { result: log.failEarly({ message: `Not run: ${childEnv.problem}`, code: "env-file" }) };
    return { result: log.failEarly(badOption ? { message: `Not run: ${badOption}`, code: "invalid-option" } : { message: `No such file: ${file}`, code: "not-found" }) };
  }
  if (cancelled()) {
    // Cancelled before it started (a file still queued when the command was stopped): no bundle, no child.
    if (options.earlyChild) await options.earlyChild.discard();
    log.say({ type: "start", file, time: new Date().toISOString(), runtime: {} });
    return { result: log.finish("cancelled", {}, { cached: false, durationMs: 0 }) };
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
  if (!bundled.ok || cancelled()) {
    if (early) await early.discard();
    log.say({ type: "start", file, time: new Date().toISOString(), runtime });
    warnCache(log, cache);
    if (!bundled.ok) return { result: log.failEarly(bundled.failure, runtime, bundleInfo) };
    return { result: log.finish("cancelled", runtime, bundleInfo) };
  }
  log.inputs = bundled.meta.userFiles;
  return { run: { workspace, timeoutMs, heapMb, env, cache, assets, bundled, bundleInfo, runtime, early } };
}
