// What a finding code is, and what a check is. A code's descriptor says its default severity, its
// catalogue line (SARIF's rule description) and the rows the READMEs' catalogue tables show;
// scripts/gen-checks.mjs reads the descriptor files (their literals, without running them) and writes the
// registries, the codes with their default severities (FINDING_CODES) and those tables from them. A check
// is a code's descriptor with `run` over what it checks (a machine, a flow file, an eval file's calls).
// The text fields must be string literals (the generator reads them from the source).
import type { FindingCode, Severity } from "@agent-lens/protocol/codes";
import type { Finding } from "./types";

export interface CodeDescriptor {
  code: FindingCode;
  /** Its default severity (FINDING_CODES[code]; a user's override may change it). */
  severity: Severity;
  /** Off unless a user's severity override turns it on (OFF_BY_DEFAULT is generated from these). */
  offByDefault?: true;
  /** The tables' severity cell where the default alone would mislead (a check giving its findings another). */
  severityText?: string;
  /** One line: what a finding of this code means (the catalogue; one code's descriptors' lines are joined). */
  description: string;
  /** README.md's catalogue row, for users: when it fires. */
  when: string;
  /** server/README.md's catalogue row, for us: when it fires and when it stays quiet, in detail. */
  docs: string;
  /** server/README.md's quick fix cell (absent: none). */
  quickFix?: string;
}

export interface CheckDescriptor<Input> extends CodeDescriptor {
  /** A machine check whose findings a transition target's text decides: an edit inside a target's string
   *  re-runs it (and only such checks) for its machine instead of analyzing the file again. */
  decidedByTargets?: true;
  run(input: Input): Finding[];
}
