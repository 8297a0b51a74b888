// analysis-failed: part of a file's analysis failed, and the file says so instead of a quiet gap. Written by
// analysis-failure.ts from the failures errors.ts collects; this is the code's descriptor (catalogue, tables).
import type { CodeDescriptor } from "../check";

export const analysisFailed: CodeDescriptor = {
  code: "analysis-failed",
  severity: "error",
  description: "Part of the file's analysis failed (a step threw, or the code nests too deeply to be read), so findings may be missing.",
  when: "part of the file's analysis failed: the code nests too deeply for the TypeScript parser (thousands of parentheses), a file it imports cannot be read, or a step of the analysis threw; the message says what and why, `check` exits 1, the editor shows it. The file's other findings are still reported",
  docs: "part of the file's analysis failed: the TypeScript parser cannot read the file (code nested thousands of levels deep: parentheses, brackets), a file it imports cannot be read, or a step of the analysis threw (a bug). One finding at 1:1 naming what failed and why (`RangeError: Maximum call stack size exceeded` reads \"the code nests too deeply to be read\"); the file's other findings are still reported, `check` exits 1, the editor shows it as an Error",
};
