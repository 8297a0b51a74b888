// Base types shared by every part of the analysis. Pure data: no ts-morph, LSP or VS Code types here,
// so the CLI, the language server and the tests all consume the same shapes.

/** A span of source text. Offsets are UTF-16 code units; lines and columns are 0-based (LSP-style). */
export interface SourceRange {
  start: number;
  end: number;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

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

/** A text edit in one file; the file is absolute. */
export interface TextEdit {
  file: string;
  range: SourceRange;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix a user most likely wants (editors apply it with the "preferred fix" shortcut). */
  preferred?: boolean;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  /** Absolute path of the file the finding is in. */
  file: string;
  range: SourceRange;
  fixes?: QuickFix[];
}
