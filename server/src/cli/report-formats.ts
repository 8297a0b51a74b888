// The three output formats of `agent-lens check`: text (one line per finding), JSON and SARIF 2.1.0.
// Lines and columns are 1-based in every format; paths are relative to the working directory.
import * as path from "node:path";
import { CODE_DESCRIPTIONS } from "../analysis/code-descriptions";
import { FINDING_CODES, type Finding, type FindingCode } from "../analysis/types";

export interface ReportFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Finding["severity"];
  code: FindingCode;
  message: string;
}

export function toReportFinding(cwd: string, f: Finding): ReportFinding {
  return {
    file: path.relative(cwd, f.file).split(path.sep).join("/") || path.basename(f.file),
    line: f.range.startLine + 1,
    column: f.range.startColumn + 1,
    endLine: f.range.endLine + 1,
    endColumn: f.range.endColumn + 1,
    severity: f.severity,
    code: f.code,
    message: f.message,
  };
}

const COLOURS: Record<Finding["severity"], string> = { error: "\x1b[31m", warning: "\x1b[33m", info: "\x1b[36m", hint: "\x1b[2m" };

export function formatText(findings: ReportFinding[], colour: boolean): string {
  return findings
    .map((f) => {
      const sev = colour ? `${COLOURS[f.severity]}${f.severity}\x1b[0m` : f.severity;
      const loc = `${f.file}:${f.line}:${f.column}`;
      return `${colour ? `\x1b[1m${loc}\x1b[0m` : loc} ${sev} ${f.code} ${f.message}\n`;
    })
    .join("");
}

export function formatJson(files: number, findings: ReportFinding[]): string {
  return JSON.stringify({ files, findings }, null, 2) + "\n";
}

const SARIF_LEVEL: Record<Finding["severity"], string> = { error: "error", warning: "warning", info: "note", hint: "note" };

export function formatSarif(findings: ReportFinding[], version: string): string {
  const codes = Object.keys(FINDING_CODES) as FindingCode[];
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "agent-lens",
            version,
            informationUri: "https://example.invalid/agent-lens",
            rules: codes.map((code) => ({
              id: code,
              name: code,
              shortDescription: { text: CODE_DESCRIPTIONS[code] },
              defaultConfiguration: { level: SARIF_LEVEL[FINDING_CODES[code]] },
            })),
          },
        },
        columnKind: "utf16CodeUnits",
        originalUriBaseIds: { "%SRCROOT%": { uri: "./" } },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: codes.indexOf(f.code),
          level: SARIF_LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeURI(f.file), uriBaseId: "%SRCROOT%" },
                region: { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn },
              },
            },
          ],
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
