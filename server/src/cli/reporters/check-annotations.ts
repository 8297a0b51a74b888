// `agent-lens check` in a GitHub Actions job: each finding as a workflow command (error, warning, or notice
// for info and hint), at its range, titled with its code.
import type { ReportFinding } from "../report-formats";
import { formatAnnotation } from "./github";

const LEVEL = { error: "error", warning: "warning", info: "notice", hint: "notice" } as const;

export function findingAnnotations(findings: ReportFinding[]): string {
  return findings
    .map((f) => formatAnnotation({ level: LEVEL[f.severity], file: f.file, line: f.line, col: f.column, endLine: f.endLine, endColumn: f.endColumn, title: `agent-lens ${f.code}`, message: f.message }))
    .join("");
}
