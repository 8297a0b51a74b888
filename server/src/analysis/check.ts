// What a check is: one finding code with its default severity, a one-line description (the catalogue,
// SARIF's rule descriptions), the paragraph the docs give it, and `run` over what it checks (a machine, a
// flow file, ...). A check file exports one; a test holds each against FINDING_CODES and the catalogue.
import type { FindingCode, Severity } from "@agent-lens/protocol/codes";
import type { Finding } from "./types";

export interface CheckDescriptor<Input> {
  code: FindingCode;
  /** Its default severity (FINDING_CODES[code]; a user's override may change it). */
  severity: Severity;
  /** One line: what a finding of this code means. */
  description: string;
  /** The docs' paragraph: when it fires, when it stays quiet, and why it matters. */
  docs: string;
  run(input: Input): Finding[];
}
