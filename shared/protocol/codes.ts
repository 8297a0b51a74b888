// The finding codes and their default severities: what `check`, the language server and the settings
// (`agentLens.diagnostics.severity`, `--severity`) all name.
import { CHECK_CODES, OFF_BY_DEFAULT_CODES } from "./check-codes";

/** "hint" is shown as a hint in editors (no Problems entry), a note in SARIF; `unnamed-request` gives it where a
 *  missing name changes nothing that runs, and a user's severity override may give it to any code. */
export type Severity = "error" | "warning" | "info" | "hint";

/** Every code a finding may carry. Codes are stable; messages may change. */
export const FINDING_CODES = {
  // generated from the codes' descriptors (server/src/analysis/{stately/checks,falai/checks,
  // stately/eval-checks,analysis-codes}/<code>.ts) by scripts/gen-checks.mjs
  ...CHECK_CODES,
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;

/** Codes that exist but are off unless a user turns them on through severity overrides. */
export const OFF_BY_DEFAULT: ReadonlySet<FindingCode> = new Set<FindingCode>(OFF_BY_DEFAULT_CODES);

/** A user's severity overrides: "off" removes the code's findings; anything else replaces the severity. */
export type SeverityOverrides = Partial<Record<FindingCode, Severity | "off">>;
