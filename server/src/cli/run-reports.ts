// What `agent-lens run` reports once every run is done (issue 27): the repeats' summaries (--repeat) and
// agent coverage (--coverage); and whether they let the run pass. The per-file report as files finish
// stays in run.ts.
import type { RepeatSummary } from "@agent-lens/protocol";
import type { FileRecord } from "./run-record";
import type { CoverageModel } from "./coverage/model";
import { coverageOf, writeCoverage } from "./coverage/session";
import { formatRepeats, repeatSummaries } from "./repeat/report";

export interface AfterRunOptions {
  root: string;
  /** Something machine-readable is on stdout (--json): the rest goes to stderr. */
  json: boolean;
  text: boolean;
  coverage?: { dir: string; min?: number };
  repeat: number;
  passRate?: number;
  /** Files that ran once on purpose (deterministic) under --repeat. */
  deterministic: Set<string>;
}

const out = (s: string) => process.stdout.write(s);
const err = (s: string) => process.stderr.write(s);

/** Coverage: the table and the files; false when it is under --coverage-min or could not be made. */
async function reportCoverage(records: FileRecord[], o: AfterRunOptions, model: CoverageModel): Promise<boolean> {
  try {
    const written = writeCoverage(coverageOf(model, records, o.root), o.root, o.coverage!.dir, o.coverage!.min);
    (o.json || !o.text ? err : out)(written.table);
    if (written.belowMin) {
      err(`agent-lens: ${written.belowMin}\n`);
      return false;
    }
    return true;
  } catch (error) {
    err(`agent-lens: no coverage: ${(error as Error).message}\n`);
    return false;
  }
}

/** The reports after the runs; false when one of them fails the run (a repeated test under its rules,
 *  coverage under --coverage-min). */
export async function reportAfterRun(records: FileRecord[], o: AfterRunOptions, model: Promise<CoverageModel> | undefined): Promise<boolean> {
  let ok = true;
  let summaries: RepeatSummary[] | undefined;
  if (o.repeat > 1) {
    summaries = repeatSummaries(records, o.passRate, o.deterministic);
    if (o.json) for (const s of summaries) out(`${JSON.stringify(s)}\n`);
    else if (o.text) out(formatRepeats(summaries, o.root, o.repeat, o.passRate));
    ok = summaries.every((s) => s.ok);
  }
  let coverage: CoverageModel | undefined;
  if (model) {
    try {
      coverage = await model;
    } catch (error) {
      err(`agent-lens: no coverage: ${(error as Error).message}\n`);
      ok = false;
    }
  }
  if (coverage && o.coverage) ok = (await reportCoverage(records, o, coverage)) && ok;
  return ok;
}
