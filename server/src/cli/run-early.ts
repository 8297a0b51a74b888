// `agent-lens run FILE` with one file: its child starts before the CLI loads the harness, the settings and
// the file discovery (main.ts calls this first), so the child's start-up and its libraries' loading overlap
// all of that and the cache check. The child is started as runEvalFile would start it (early-child.ts);
// when the run's real spec or libraries differ from the guess (the file changed since its last build),
// runEvalFile ends it and starts another. Kept light: the harness itself is loaded after the child is on
// its way.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { RecordingsMode, RuntimeMode } from "@agent-lens/protocol";
import { settingsOfFolder, type FileSettings } from "@agent-lens/settings";
import { childEnvironment, DEFAULT_HEAP_MB, defaultCacheDir, harnessAssets, makePrivateFolder, parseDecimal, startEarlyChild, validHeapMb, workspaceOf, type HarnessChild } from "@agent-lens/harness/early";

/** `agent-lens run`'s options (run.ts parses them; the early start reads the few it needs). */
export const RUN_OPTIONS = {
  jobs: { type: "string", short: "j" }, shard: { type: "string" }, timeout: { type: "string" }, heap: { type: "string" }, "max-rss": { type: "string" },
  runtime: { type: "string" }, json: { type: "boolean" }, watch: { type: "boolean" }, "no-color": { type: "boolean" },
  config: { type: "string" }, help: { type: "boolean", short: "h" },
  coverage: { type: "boolean" }, "coverage-dir": { type: "string" }, "coverage-min": { type: "string" },
  repeat: { type: "string" }, "pass-rate": { type: "string" }, reporter: { type: "string", multiple: true }, "output-file": { type: "string" },
  record: { type: "boolean" }, "replay-only": { type: "boolean" }, "env-file": { type: "string" },
} as const;

/** The recordings mode and env file a run takes: the flags, else the settings file's (paths from `cwd`). */
export function recordingChoices(values: { record?: boolean; "replay-only"?: boolean; "env-file"?: string }, settings: FileSettings["settings"], cwd: string): { recordings: RecordingsMode; envFile?: string } {
  const recordings: RecordingsMode = values.record ? "record" : values["replay-only"] ? "replay-only" : settings.run.recordings;
  const envFile = values["env-file"] ?? (settings.run.envFile || undefined);
  return { recordings, ...(envFile !== undefined ? { envFile: resolve(cwd, envFile) } : {}) };
}

const MODES: readonly string[] = ["auto", "bundled", "workspace"] satisfies RuntimeMode[];

/** The child started for one file, until the run of that file takes it; ended when nothing does. */
export class EarlyChild {
  private child: HarnessChild | undefined;

  constructor(readonly file: string, child: HarnessChild) {
    this.child = child;
  }

  /** The child, for the run of `file` (once). */
  take(file: string): HarnessChild | undefined {
    if (file !== this.file) return undefined;
    const child = this.child;
    this.child = undefined;
    return child;
  }

  /** Ends the child when no run took it. */
  async discardUnused(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) await child.discard();
  }
}

/** Starts the child when the arguments name exactly one existing file (else undefined: the runs start
 *  their children as usual). Never throws: a bad argument is run.ts's to report. */
export function startEarlyForArgs(argv: string[], cwd = process.cwd()): EarlyChild | undefined {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: RUN_OPTIONS });
    if (values.help || positionals.length !== 1 || values.shard !== undefined || (values.record && values["replay-only"])) return undefined;
    const file = resolve(cwd, positionals[0]!);
    if (!statSync(file).isFile()) return undefined;
    const heapMb = values.heap === undefined ? DEFAULT_HEAP_MB : parseDecimal(values.heap, false);
    if (!validHeapMb(heapMb) || (values.runtime !== undefined && !MODES.includes(values.runtime))) return undefined;
    const cacheDir = defaultCacheDir();
    if (makePrivateFolder(cacheDir)) return undefined; // a refused cache folder: run.ts says so, and builds elsewhere
    // The settings file, read before the spawn (its recordings mode and env file make the child's environment).
    const folder = settingsOfFolder(cwd, values.config !== undefined ? resolve(cwd, values.config) : undefined);
    if (values.config !== undefined && !folder.file) return undefined; // run.ts says why
    // The child's environment exactly as the run will make it (a missing env file: the run says so).
    const workspace = workspaceOf(file);
    const childEnv = childEnvironment(process.env, { workspace, ...recordingChoices(values, folder.settings, cwd) });
    if (!childEnv.env) return undefined;
    // The runtime mode as run.ts takes it (the flag, else the settings file): it picks the last build the
    // libraries to preload come from, so nothing of another mode's copies is preloaded (a bad mode: nothing is).
    const mode = (): RuntimeMode | undefined => {
      const chosen = values.runtime ?? folder.settings.run.runtime;
      return MODES.includes(chosen) ? (chosen as RuntimeMode) : undefined;
    };
    const child = startEarlyChild({ file, workspace, env: childEnv.env, heapMb, mode, cacheDir, assets: harnessAssets() });
    return new EarlyChild(file, child);
  } catch {
    return undefined;
  }
}
