// The defaults of every `agentLens.*` setting, written once. A leaf module (no imports), so the analysis
// library and the harness can take their defaults from here without depending on the settings reader.
// package.json's `contributes.configuration` repeats them for VS Code's settings editor; a test holds the
// two equal (test/shared/settings.test.ts).

/** `agentLens.enable`. */
export const DEFAULT_ENABLE = true;
/** `agentLens.diagnostics.debounceMs`, and the largest value taken (10 s). */
export const DEFAULT_DEBOUNCE_MS = 150;
export const MAX_DEBOUNCE_MS = 10_000;
/** `agentLens.diagnostics.scope`: `workspace` publishes the findings of every indexed agent file, open or
 *  not (the Problems view and the Explorer have them at start); `openFiles` only those of open files. */
export const DEFAULT_DIAGNOSTICS_SCOPE = "workspace";
export const DIAGNOSTICS_SCOPES: readonly string[] = Object.freeze(["workspace", "openFiles"]);
/** `agentLens.testGlobs`: the eval files of the Testing view, the catalog and `agent-lens run`. */
export const DEFAULT_TEST_GLOBS: readonly string[] = Object.freeze(["**/*.{test,spec,eval}.{ts,mts,js,mjs}"]);
/** `agentLens.run.timeoutSeconds`: the wall-clock limit of one run, and the smallest value the setting takes. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MIN_TIMEOUT_SETTING_SECONDS = 1;
/** `agentLens.run.runtime`. */
export const DEFAULT_RUNTIME = "auto";
/** `agentLens.run.jobs`: runs at once in the editor (lenses, commands and the Testing view share them). */
export const DEFAULT_JOBS = 2;
export const MAX_JOBS = 64;
/** `agentLens.run.recordings`: `auto` answers calls from a file's recording when it has one; `replay-only`
 *  makes no live call at all (CI). Recording is a command (`agent-lens run --record`), never a setting. */
export const DEFAULT_RECORDINGS = "auto";
/** `agentLens.run.envFile`: a dotenv file whose variables the runs get (none by default). */
export const DEFAULT_ENV_FILE = "";
