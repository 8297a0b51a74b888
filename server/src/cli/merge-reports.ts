// agent-lens merge-reports [DIR]: the blob reports of sharded runs (`run --shard i/n --reporter blob`) made
// into one report, as one unsharded run would have given it: the text report (files in order), the repeats'
// summaries, the JUnit file, GitHub annotations, and one coverage when the shards ran with --coverage.
import { parseArgs } from "node:util";
import { formatFileResult, summaryLine } from "@agent-lens/harness";
import { DEFAULT_COVERAGE_DIR } from "./coverage/session";
import { BlobError, DEFAULT_BLOB_DIR, mergeBlobs, readBlobs } from "./reporters/blob";
import { chooseReporters, type ReporterChoice } from "./reporters/options";
import { reportAfterRun } from "./run-reports";

const USAGE = `usage: agent-lens merge-reports [DIR] [options]

Reads the blob reports in DIR (default ${DEFAULT_BLOB_DIR}/, written by \`agent-lens run --reporter blob\`,
one per shard) and reports them as one run: the same text report, JUnit file, annotations, repeat summaries
and, when the shards ran with --coverage, one agent coverage. Exit status as \`agent-lens run\`'s.

options:
  --reporter NAME     text (default), junit or github; repeatable
  --output-file FILE  the JUnit report's file (else stdout)
  --coverage-dir DIR  where the merged coverage goes (default ${DEFAULT_COVERAGE_DIR})
  --coverage-min N    exit 1 when the merged coverage is under N percent
  --pass-rate R       with repeated runs: the share of its runs a test must pass (default: the shards')
  --no-color          plain text report
  -h, --help          this text
`;

export async function runMergeReports(argv: string[]): Promise<number> {
  let values: { reporter?: string[]; "output-file"?: string; "coverage-dir"?: string; "coverage-min"?: string; "pass-rate"?: string; "no-color"?: boolean; help?: boolean };
  let dir: string;
  let reporters: ReporterChoice;
  try {
    const parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: { reporter: { type: "string", multiple: true }, "output-file": { type: "string" }, "coverage-dir": { type: "string" }, "coverage-min": { type: "string" }, "pass-rate": { type: "string" }, "no-color": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
    values = parsed.values;
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (parsed.positionals.length > 1) throw new Error(`takes one folder, got ${parsed.positionals.length}`);
    dir = parsed.positionals[0] ?? DEFAULT_BLOB_DIR;
    reporters = chooseReporters(values.reporter, values["output-file"], undefined, false);
    for (const [flag, max] of [["coverage-min", Infinity], ["pass-rate", 1]] as const) {
      const v = values[flag];
      if (v !== undefined && !(/^\d*\.?\d+$/.test(v) && Number(v) <= max)) throw new Error(`--${flag} needs a number${max === 1 ? " from 0 to 1" : " from 0"}, got "${v}"`);
    }
  } catch (error) {
    process.stderr.write(`agent-lens merge-reports: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const root = process.cwd();
  let merged: ReturnType<typeof mergeBlobs>;
  try {
    merged = mergeBlobs(readBlobs(dir, root));
  } catch (error) {
    if (!(error instanceof BlobError)) throw error;
    process.stderr.write(`agent-lens merge-reports: ${error.message}\n`);
    return 2;
  }
  const { records, repeat } = merged;
  const passRate = values["pass-rate"] !== undefined ? Number(values["pass-rate"]) : merged.passRate;
  const color = !values["no-color"] && !process.env.NO_COLOR && process.stdout.isTTY === true;
  const text = reporters.text;
  if (text) {
    for (const r of records) {
      const block = formatFileResult(r.result, r.console, root, { color });
      process.stdout.write(`${repeat > 1 ? `${block.split("\n")[0]} · run ${r.repeat ?? 1}/${repeat}` : block}\n`);
    }
  }
  const firstRuns = records.filter((r) => (r.repeat ?? 1) === 1);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const r of firstRuns) for (const k of ["passed", "failed", "skipped"] as const) totals[k] += r.result.summary[k];
  if (text && repeat === 1) process.stdout.write(`${summaryLine(totals)}\n`);
  const coverage = merged.coverage ? { dir: values["coverage-dir"] ?? DEFAULT_COVERAGE_DIR, ...(values["coverage-min"] !== undefined ? { min: Number(values["coverage-min"]) } : {}) } : undefined;
  if (!merged.coverage && values["coverage-min"] !== undefined) {
    process.stderr.write("agent-lens merge-reports: --coverage-min: the shards ran without --coverage, there is no coverage to judge\n");
    return 1;
  }
  const ok = await reportAfterRun(records, {
    ...reporters, root, json: false, text, ...(coverage ? { coverage } : {}),
    repeat, ...(passRate !== undefined ? { passRate } : {}), deterministic: new Set(merged.deterministic),
  }, merged.coverage ? Promise.resolve(merged.coverage) : undefined);
  const runsOk = repeat > 1 || (totals.failed === 0 && firstRuns.every((r) => r.result.status === "passed"));
  return ok && runsOk && records.length > 0 ? 0 : 1;
}
