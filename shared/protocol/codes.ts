// The finding codes and their default severities: what `check`, the language server and the settings
// (`agentLens.diagnostics.severity`, `--severity`) all name.
import { CHECK_CODES } from "./check-codes";

/** "hint" is shown as a hint in editors (no Problems entry), a note in SARIF; `unnamed-request` gives it where a
 *  missing name changes nothing that runs, and a user's severity override may give it to any code. */
export type Severity = "error" | "warning" | "info" | "hint";

/** Every code a finding may carry. Codes are stable; messages may change. */
export const FINDING_CODES = {
  // every check written as a descriptor (server/src/analysis/{stately,falai}/checks/<code>.ts), generated
  ...CHECK_CODES,
  // the eval-call checks of state machines (stately/checks/evals.ts, scripted-keys.ts)
  "unknown-script-key": "error",
  "unknown-seam": "error",
  "unknown-state-ref": "error",
  "empty-trajectory": "error",
  // the analysis itself
  "analysis-skipped": "info",
  "analysis-failed": "error",
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;

/** Codes that exist but are off unless a user turns them on through severity overrides. */
export const OFF_BY_DEFAULT: ReadonlySet<FindingCode> = new Set<FindingCode>(["invoke-without-on-error"]);

/** A user's severity overrides: "off" removes the code's findings; anything else replaces the severity. */
export type SeverityOverrides = Partial<Record<FindingCode, Severity | "off">>;
