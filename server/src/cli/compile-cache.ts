// On Node ≥ 22 the CLI keeps V8's compiled code of its own modules (dist/cli/run.js, loaded next) in the
// cache folder's v8/, as the harness child does for the user's bundle and its libraries. Nothing on older
// Node, or when the cache folder is refused (run.ts says why). The environment is left alone: children
// are started exactly as before.
import * as nodeModule from "node:module";
import { join } from "node:path";
import { defaultCacheDir, makePrivateFolder } from "@agent-lens/harness/early";

export function cacheCompiledCode(): void {
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (!enable) return;
  try {
    const dir = defaultCacheDir();
    if (!makePrivateFolder(dir)) enable(join(dir, "v8"));
  } catch {
    // an unwritable folder: run without it
  }
}
