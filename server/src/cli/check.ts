// `agent-lens check [paths...]`: the analysis over files on disk, reported as text, JSON or SARIF.
// Exit codes: 1 when an error is found (or more warnings than --max-warnings), 0 otherwise, 2 on bad usage.
import * as path from "node:path";
import { parseArgs } from "node:util";
import { parseSeverityFlag, settingsOfFolder, SEVERITY_SETTINGS, type SeverityOverrides } from "@agent-lens/settings";
import { createWorkspace } from "../analysis";
import type { Finding } from "../analysis/types";
import { collectFiles, PathError } from "./collect-files";
import { formatJson, formatSarif, formatText, toReportFinding } from "./report-formats";
import { findingAnnotations } from "./reporters/check-annotations";
import { inGithubActions } from "./reporters/github";

const VERSION = "0.1.0";

const CHECK_USAGE = `usage: agent-lens check [paths...] [options]

Reports diagnostics for @statelyai/agent machines and @falai/agent flows in the given files and folders
(default: the current folder). node_modules and .gitignore'd files are skipped; tsconfig.json "paths"
are used to follow imports. The working directory's .vscode/settings.json is read as the editor reads it
(agentLens.diagnostics.severity, agentLens.testGlobs, agentLens.enable), so CI and the editor agree.

options:
  --format <text|json|sarif>   output format (default: text)
  --max-warnings <n>           also fail when there are more than n warnings
  --severity <code=level>      override one code's severity (${SEVERITY_SETTINGS.join(", ")}); repeatable,
                               wins over the settings file
  --config <file>              a VS Code settings file to read instead of .vscode/settings.json
  --no-color                   plain text output even on a terminal
  -h, --help                   show this help

exit status: 0 no errors, 1 errors found (or too many warnings), 2 bad usage
`;

function usageError(message: string): number {
  process.stderr.write(`agent-lens check: ${message}\n\n${CHECK_USAGE}`);
  return 2;
}

export async function runCheck(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: "string", default: "text" },
        "max-warnings": { type: "string" },
        severity: { type: "string", multiple: true },
        config: { type: "string" },
        "no-color": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(CHECK_USAGE);
    return 0;
  }
  const format = values.format;
  if (format !== "text" && format !== "json" && format !== "sarif") return usageError(`unknown format "${format}" (expected text, json or sarif)`);
  let maxWarnings: number | undefined;
  if (values["max-warnings"] !== undefined) {
    const n = Number(values["max-warnings"]);
    if (!Number.isInteger(n) || n < 0) return usageError(`--max-warnings needs a whole number >= 0, got "${values["max-warnings"]}"`);
    maxWarnings = n;
  }

  const cwd = process.cwd();
  const folder = settingsOfFolder(cwd, values.config !== undefined ? path.resolve(cwd, values.config) : undefined);
  if (values.config !== undefined && !folder.file) return usageError(folder.problems[0] ?? `--config ${values.config}: cannot be read`);
  const severity: SeverityOverrides = { ...folder.settings.severity };
  for (const flag of values.severity ?? []) {
    try {
      const [code, level] = parseSeverityFlag(flag);
      severity[code] = level;
    } catch (error) {
      return usageError((error as Error).message);
    }
  }
  for (const problem of folder.problems) process.stderr.write(`agent-lens check: ${problem}\n`);
  let files: string[] = [];
  try {
    files = collectFiles(cwd, positionals);
  } catch (error) {
    if (error instanceof PathError) return usageError(error.message);
    throw error;
  }
  if (!folder.settings.enable) {
    // As in the editor: a folder whose settings turn Agent Lens off has no findings.
    process.stderr.write(`agent-lens check: agentLens.enable is false in ${folder.file}: nothing checked\n`);
    files = [];
  }

  // check prints findings only: no symbols, references, lenses, tests or graphs are built
  const workspace = createWorkspace({ roots: [cwd], severity, testGlobs: folder.settings.testGlobs, outputsOnDemand: true });
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const file of files) {
    for (const f of workspace.analyze(file).findings) {
      const key = `${f.file}:${f.range.start}:${f.range.end}:${f.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.range.start - b.range.start || a.code.localeCompare(b.code));
  const report = findings.map((f) => toReportFinding(cwd, f));

  if (format === "json") process.stdout.write(formatJson(files.length, report));
  else if (format === "sarif") process.stdout.write(formatSarif(report, VERSION));
  else {
    const colour = !values["no-color"] && !!process.stdout.isTTY && !process.env.NO_COLOR;
    process.stdout.write(formatText(report, colour));
    const errors = report.filter((f) => f.severity === "error").length;
    const warnings = report.filter((f) => f.severity === "warning").length;
    const infos = report.filter((f) => f.severity === "info").length;
    const hints = report.filter((f) => f.severity === "hint").length;
    process.stderr.write(`${files.length} file${files.length === 1 ? "" : "s"} checked: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}${infos ? `, ${infos} info` : ""}${hints ? `, ${hints} hint${hints === 1 ? "" : "s"}` : ""}\n`);
  }

  // In a GitHub Actions job each finding is an annotation too (on stderr beside a JSON / SARIF stdout).
  if (inGithubActions()) (format === "text" ? process.stdout : process.stderr).write(findingAnnotations(report));
  const errors = report.some((f) => f.severity === "error");
  const warnings = report.filter((f) => f.severity === "warning").length;
  return errors || (maxWarnings !== undefined && warnings > maxWarnings) ? 1 : 0;
}

