// The `agentLens.*` settings as every part reads them: the language server (per workspace folder), the
// VS Code client (run settings), `agent-lens check` and `agent-lens run` (from .vscode/settings.json).
// `parseSettings` takes the section as VS Code returns it (nested objects) or as flat dotted keys
// (`"diagnostics.debounceMs": 0`, as some clients and settings.json write it), and never throws: a value
// that is missing falls back to its default; a value that is present but unusable falls back (or is
// clamped) too, with a problem that names the setting, so the editor and the CLI can say so.
import { FINDING_CODES, type FindingCode, type Severity, type SeverityOverrides } from "../protocol/codes";
import { MAX_TIMEOUT_SECONDS } from "../protocol/limits";
import type { RecordingsMode, RuntimeMode } from "../protocol/harness";
import * as D from "./defaults";
import type { ModelPrice } from "./model-prices";

/** A severity a user may give a code: any finding severity ("hint" included), or "off". */
export type SeveritySetting = Severity | "off";
export type { SeverityOverrides };

export type DiagnosticsScope = "workspace" | "openFiles";

export interface Settings {
  enable: boolean;
  debounceMs: number;
  /** `agentLens.diagnostics.scope`: the findings of every indexed agent file, or of open files only. */
  diagnosticsScope: DiagnosticsScope;
  severity: SeverityOverrides;
  testGlobs: string[];
  run: {
    timeoutSeconds: number;
    runtime: RuntimeMode;
    /** Runs at once in the editor (one queue for lenses, commands and the Testing view). */
    jobs: number;
    /** How runs use a file's recording (a record run is asked for per run, not set). */
    recordings: Exclude<RecordingsMode, "record">;
    /** A dotenv file the runs' processes get the variables of (relative to the workspace folder); "" for none. */
    envFile: string;
    /** Model prices (USD per 1M tokens) over the built-in table, by model name. */
    modelPrices: Record<string, ModelPrice>;
  };
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  enable: D.DEFAULT_ENABLE,
  debounceMs: D.DEFAULT_DEBOUNCE_MS,
  diagnosticsScope: D.DEFAULT_DIAGNOSTICS_SCOPE as DiagnosticsScope,
  severity: Object.freeze({}),
  testGlobs: [...D.DEFAULT_TEST_GLOBS],
  run: Object.freeze({
    timeoutSeconds: D.DEFAULT_TIMEOUT_SECONDS, runtime: D.DEFAULT_RUNTIME as RuntimeMode, jobs: D.DEFAULT_JOBS,
    recordings: D.DEFAULT_RECORDINGS as Settings["run"]["recordings"], envFile: D.DEFAULT_ENV_FILE, modelPrices: Object.freeze({}) as Record<string, ModelPrice>,
  }),
});

/** A value that was present but not taken as given. `setting` is the full name (`agentLens.run.timeoutSeconds`). */
export interface SettingsProblem {
  setting: string;
  message: string;
}

export const SECTION = "agentLens";
export const SEVERITY_SETTINGS: readonly SeveritySetting[] = ["error", "warning", "info", "hint", "off"];
const RUNTIMES: readonly RuntimeMode[] = ["auto", "bundled", "workspace"];
const RECORDINGS: readonly Settings["run"]["recordings"][] = ["auto", "replay-only"];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a dotted path of the section: nested (`run: { jobs }`) or flat (`"run.jobs"`), nested first. */
function valueAt(section: Record<string, unknown>, path: string): unknown {
  const parts = path.split(".");
  let node: unknown = section;
  for (const part of parts) {
    if (!isRecord(node) || !(part in node)) {
      node = undefined;
      break;
    }
    node = node[part];
  }
  return node !== undefined ? node : section[path];
}

export function parseSettings(raw: unknown): { settings: Settings; problems: SettingsProblem[] } {
  const section = isRecord(raw) ? raw : {};
  const problems: SettingsProblem[] = [];
  const say = (key: string, message: string) => problems.push({ setting: `${SECTION}.${key}`, message: `${SECTION}.${key} ${message}` });
  const shown = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : Array.isArray(value) ? "a list" : isRecord(value) ? "an object" : String(value));

  const enable = valueAt(section, "enable");
  if (enable !== undefined && typeof enable !== "boolean") say("enable", `must be true or false, not ${shown(enable)}: using ${D.DEFAULT_ENABLE}.`);

  const number = (key: string, min: number, max: number, fallback: number, unit: string, integer = false): number => {
    const value = valueAt(section, key);
    if (value === undefined) return fallback;
    const most = `${max}${unit}${max === 86_400 && unit === " s" ? " (24 h)" : ""}`;
    if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
      say(key, `must be ${integer ? "a whole number" : "a number"} from ${min} to ${most}, not ${shown(value)}: using ${fallback}.`);
      return fallback;
    }
    if (value > max) {
      say(key, `is ${value}, above the maximum of ${most}: using ${max}.`);
      return max;
    }
    if (value < min) {
      say(key, `is ${value}, below the minimum of ${min}${unit}: using ${min}.`);
      return min;
    }
    return value;
  };

  const globs = valueAt(section, "testGlobs");
  let testGlobs = [...D.DEFAULT_TEST_GLOBS];
  if (globs !== undefined) {
    if (Array.isArray(globs) && globs.length && globs.every((g) => typeof g === "string" && g.length)) testGlobs = [...(globs as string[])];
    else say("testGlobs", `must be a non-empty list of glob strings: using ${JSON.stringify(D.DEFAULT_TEST_GLOBS)}.`);
  }

  const runtime = valueAt(section, "run.runtime");
  if (runtime !== undefined && !RUNTIMES.includes(runtime as RuntimeMode)) say("run.runtime", `must be one of ${RUNTIMES.join(", ")}, not ${shown(runtime)}: using ${D.DEFAULT_RUNTIME}.`);
  const recordings = valueAt(section, "run.recordings");
  if (recordings !== undefined && !RECORDINGS.includes(recordings as never)) {
    say("run.recordings", `must be one of ${RECORDINGS.join(", ")}, not ${shown(recordings)}: using ${D.DEFAULT_RECORDINGS}${recordings === "record" ? " (recording is a command: agent-lens run --record)" : ""}.`);
  }
  const scope = valueAt(section, "diagnostics.scope");
  if (scope !== undefined && !D.DIAGNOSTICS_SCOPES.includes(scope as string)) say("diagnostics.scope", `must be one of ${D.DIAGNOSTICS_SCOPES.join(", ")}, not ${shown(scope)}: using ${D.DEFAULT_DIAGNOSTICS_SCOPE}.`);
  const envFile = valueAt(section, "run.envFile");
  if (envFile !== undefined && typeof envFile !== "string") say("run.envFile", `must be a file path, not ${shown(envFile)}: using none.`);

  return {
    settings: {
      enable: typeof enable === "boolean" ? enable : D.DEFAULT_ENABLE,
      debounceMs: number("diagnostics.debounceMs", 0, D.MAX_DEBOUNCE_MS, D.DEFAULT_DEBOUNCE_MS, " ms"),
      diagnosticsScope: (D.DIAGNOSTICS_SCOPES.includes(scope as string) ? scope : D.DEFAULT_DIAGNOSTICS_SCOPE) as DiagnosticsScope,
      severity: parseSeverities(valueAt(section, "diagnostics.severity"), say),
      testGlobs,
      run: {
        timeoutSeconds: number("run.timeoutSeconds", D.MIN_TIMEOUT_SETTING_SECONDS, MAX_TIMEOUT_SECONDS, D.DEFAULT_TIMEOUT_SECONDS, " s"),
        runtime: RUNTIMES.includes(runtime as RuntimeMode) ? (runtime as RuntimeMode) : (D.DEFAULT_RUNTIME as RuntimeMode),
        jobs: number("run.jobs", 1, D.MAX_JOBS, D.DEFAULT_JOBS, "", true),
        recordings: RECORDINGS.includes(recordings as never) ? (recordings as Settings["run"]["recordings"]) : (D.DEFAULT_RECORDINGS as Settings["run"]["recordings"]),
        envFile: typeof envFile === "string" ? envFile : D.DEFAULT_ENV_FILE,
        modelPrices: parseModelPrices(valueAt(section, "run.modelPrices"), say),
      },
    },
    problems,
  };
}

/** `run.modelPrices`: `{ "<model>": { "input": n, "output": n } }`, USD per 1M tokens; a bad entry is named and left out. */
function parseModelPrices(raw: unknown, say: (key: string, message: string) => void): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  if (raw === undefined) return out;
  if (!isRecord(raw)) {
    say("run.modelPrices", `must be an object of model → { input, output } (USD per 1M tokens), not ${Array.isArray(raw) ? "a list" : String(raw)}: ignored.`);
    return out;
  }
  const price = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  for (const [model, value] of Object.entries(raw)) {
    if (isRecord(value) && price(value.input) && price(value.output)) out[model] = { input: value.input as number, output: value.output as number };
    else say("run.modelPrices", `gives "${model}" ${JSON.stringify(value)}, not { "input": <USD per 1M>, "output": <USD per 1M> }: ignored.`);
  }
  return out;
}

function parseSeverities(raw: unknown, say: (key: string, message: string) => void): SeverityOverrides {
  const out: SeverityOverrides = {};
  if (raw === undefined) return out;
  if (!isRecord(raw)) {
    say("diagnostics.severity", `must be an object of code → level, not ${Array.isArray(raw) ? "a list" : String(raw)}: ignored.`);
    return out;
  }
  for (const [code, value] of Object.entries(raw)) {
    const problem = severityProblem(code, value);
    if (problem) say("diagnostics.severity", problem);
    else out[code as FindingCode] = value as SeveritySetting;
  }
  return out;
}

/** Why `code` → `value` is not a usable severity override (one sentence), or undefined when it is. */
export function severityProblem(code: string, value: unknown): string | undefined {
  if (!(code in FINDING_CODES)) return `names "${code}", which is not a finding code: ignored.`;
  if (typeof value !== "string" || !SEVERITY_SETTINGS.includes(value as SeveritySetting)) return `gives "${code}" ${JSON.stringify(value)}, not one of ${SEVERITY_SETTINGS.join(", ")}: ignored.`;
  return undefined;
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
