// The part of the harness the CLI loads before the rest (`@agent-lens/harness/early`): what it takes to
// start a file's child before run.js, the bundler and the file discovery load (server/src/cli/run-early.ts).
export { harnessAssets } from "./assets";
export { defaultCacheDir, makePrivateFolder } from "./cache";
export type { HarnessChild } from "./child-process";
export { startEarlyChild } from "./early-child";
export { childEnvironment } from "./run-env";
export { DEFAULT_HEAP_MB, parseDecimal, validHeapMb } from "@agent-lens/protocol/limits";
export { workspaceOf } from "./workspace";
