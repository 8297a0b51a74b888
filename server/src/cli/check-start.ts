// `agent-lens check` started with V8's code cache: dist/cli/check.js is the analysis and the TypeScript
// compiler in one 14 MB bundle, and compiling it was most of a small check's time. The cache is kept in
// the cache folder's v8/ (the one `run` keeps its compiled code in), written after the check's work so
// it holds the functions compiled meanwhile, once per build of the bundle and Node version (coverage/
// code-cache.ts). Without a usable cache folder, or run from source, check loads as before.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { codeCacheFolder } from "./compile-cache";
import { requireWithCodeCache } from "./coverage/code-cache";

export async function startCheck(argv: string[]): Promise<number> {
  const bundle = join(__dirname, "check.js");
  if (!existsSync(bundle)) return (await import("./check")).runCheck(argv);
  const check = requireWithCodeCache<typeof import("./check")>(bundle, codeCacheFolder());
  const code = await check.exports.runCheck(argv);
  check.save();
  return code;
}
