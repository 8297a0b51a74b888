// The `analysis-failed` finding: part of a file's analysis failed (a step threw, or the code nests too
// deeply for the parser), so findings may be missing there. It is an error, so `check` exits non-zero and
// the editor shows it: a failed analysis is never a quiet, clean-looking file (issue 26).
import * as path from "node:path";
import type { AnalysisFailure } from "./errors";
import { FINDING_CODES, type Finding } from "./types";

/** One finding at the file's start, naming what failed and why (the first failure, and how many more). */
export function analysisFailedFinding(file: string, failures: AnalysisFailure[]): Finding {
  const [first, ...rest] = failures;
  const more = rest.length ? ` (and ${rest.length} more failure${rest.length === 1 ? "" : "s"})` : "";
  const message = `Analysis failed while ${describeWhere(file, first!.where)}: ${describeError(first!.error)}${more}. Findings of this file may be missing; the rest of it was still checked.`;
  const range = { start: 0, end: 0, startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };
  return { code: "analysis-failed", severity: FINDING_CODES["analysis-failed"], message, file, range };
}

function describeWhere(file: string, where: string): string {
  // "reading <file>" names a file this one imports: relative to it, as written in code
  if (where.startsWith("reading ")) {
    const other = where.slice("reading ".length);
    const rel = path.relative(path.dirname(file), other).split(path.sep).join("/");
    return `reading the imported file ${rel.startsWith(".") ? rel : `./${rel}`}`;
  }
  return where.replace(/ on \/.*$/, "");
}

function describeError(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return `the code nests too deeply to be read (${error.name}: ${error.message})`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
