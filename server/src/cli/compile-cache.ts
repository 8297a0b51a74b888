// `agent-lens run` loads dist/cli/run.js with its compiled code kept in the cache folder's v8/, as the
// harness child does for the user's bundle and its libraries: on Node ≥ 22 through Node's module compile
// cache, on older Node through V8's code cache (coverage/code-cache.ts, the loader `check` uses: one file
// per build of run.js and Node version, written after the first run). On Node 20 that is ~5 ms less CPU
// of the CLI per run (11.5 → 7 ms to load run.js, more for the functions compiled during the run). Nothing
// when the cache folder is refused (run.ts says why) or run from source. The environment is left alone:
// children are started exactly as before. Loaded that way, run.js cannot use a dynamic import() of its
// own (a vm.Script has no loader for it: ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); it has none, as check.js.
import { existsSync } from "node:fs";
import * as nodeModule from "node:module";
import { join } from "node:path";
import { defaultCacheDir, makePrivateFolder } from "@agent-lens/harness/early";
import { requireWithCodeCache } from "./coverage/code-cache";

type RunModule = typeof import("./run");

/** The cache folder's v8/, when the folder is usable (`run` and `check` keep their compiled code there). */
export function codeCacheFolder(): string | undefined {
  try {
    const dir = defaultCacheDir();
    return makePrivateFolder(dir) ? undefined : join(dir, "v8");
  } catch {
    return undefined; // an unusable folder: compile as before
  }
}

/** run.js's exports, and `save` to call after the run (writes V8's code cache when none fitted). */
export async function loadRunCommand(): Promise<{ runRun: RunModule["runRun"]; save: () => void }> {
  const folder = codeCacheFolder();
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  const bundle = join(__dirname, "run.js");
  if (enable || !folder || !existsSync(bundle)) {
    if (enable && folder) {
      try {
        enable(folder);
      } catch {
        // an unwritable folder: run without it
      }
    }
    return { runRun: (await import("./run")).runRun, save: () => undefined };
  }
  const run = requireWithCodeCache<RunModule>(bundle, folder);
  return { runRun: run.exports.runRun, save: run.save };
}
