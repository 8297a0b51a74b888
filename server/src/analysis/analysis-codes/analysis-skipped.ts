// analysis-skipped: the analysis says what it did not read (a file over MAX_FILE_CHARS, states nested deeper
// than MAX_NESTING) rather than staying silent about it. Written by file-analysis.ts and the machine
// reader's note (stately/checks/skipped-nesting.ts); this is the code's descriptor (catalogue, tables).
import type { CodeDescriptor } from "../check";

export const analysisSkipped: CodeDescriptor = {
  code: "analysis-skipped",
  severity: "info",
  description: "Part of the code was not analyzed (a file over the size limit, or states nested deeper than the limit), so findings there may be missing.",
  when: "part of the code was not analyzed: a file over 4,000,000 characters (when it is a test file or mentions the libraries), or states nested more than 64 levels deep; the message says what and why (the language server also logs it and shows a notice, as it does for files over its 2 MB limit)",
  docs: "a file over `MAX_FILE_CHARS` (4,000,000 characters) that is a test file or mentions the libraries: one finding at 1:1, nothing else read; a machine with states nested more than `MAX_NESTING` (64) levels: one finding at the first state whose children were not read (the machine's other checks stay conservative there). The language server logs each skip once per file and reason and shows a notice (gathered for 300 ms into one message), for these and for files over its own 2 MB read limit",
};
