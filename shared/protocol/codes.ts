// The finding codes and their default severities: what `check`, the language server and the settings
// (`agentLens.diagnostics.severity`, `--severity`) all name.

/** "hint" is shown as a hint in editors (no Problems entry), a note in SARIF; `unnamed-request` gives it where a
 *  missing name changes nothing that runs, and a user's severity override may give it to any code. */
export type Severity = "error" | "warning" | "info" | "hint";

/** Every code a finding may carry. Codes are stable; messages may change. */
export const FINDING_CODES = {
  // state machines (@statelyai/agent, xstate)
  "unknown-target": "error",
  "unreachable-state": "warning",
  "unnamed-request": "warning", // a hint where the missing name changes nothing that runs
  "unknown-request": "error",
  "missing-initial": "error",
  "unknown-initial": "error",
  "unknown-script-key": "error",
  "unknown-seam": "error",
  "unknown-state-ref": "error",
  "empty-trajectory": "error",
  "decide-without-events": "error",
  "invoke-without-on-error": "info", // off unless enabled
  "direct-object-src": "warning",
  "duplicate-state-id": "error",
  // flows (@falai/agent)
  "unknown-field": "error",
  "unknown-step": "error",
  "duplicate-step": "error",
  "duplicate-flow": "error",
  "bad-duration": "error",
  "unreachable-step": "warning",
  "untriggered-flow": "warning",
  "catch-all-conflict": "warning",
  "unknown-tool": "error",
  "unknown-action": "error",
  "unknown-flow": "error",
  "unknown-event": "error",
  "unknown-condition": "error",
  "bad-field-type": "error",
  // the analysis itself
  "analysis-skipped": "info",
  "analysis-failed": "error",
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;

/** Codes that exist but are off unless a user turns them on through severity overrides. */
export const OFF_BY_DEFAULT: ReadonlySet<FindingCode> = new Set<FindingCode>(["invoke-without-on-error"]);

/** A user's severity overrides: "off" removes the code's findings; anything else replaces the severity. */
export type SeverityOverrides = Partial<Record<FindingCode, Severity | "off">>;
