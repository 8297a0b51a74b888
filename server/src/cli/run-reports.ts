// What `agent-lens run` (and `merge-reports`, for merged shards) reports once every run is done (issue
// 27): the repeats' summaries (--repeat), agent coverage (--coverage), the JUnit file, the blob, GitHub
// annotations; and whether they let the run pass. The per-file report as files finish stays in run.ts.
import { writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { RepeatSummary } from "@agent-lens/protocol";
import type { FileRecord } from "./run-record";
import type { CoverageModel } from "./coverage/model";
import { coverageOf, writeCoverage } from "./coverage/session";
import { formatRepeats, repeatSummaries } from "./repeat/report";
import { writeBlob, type BlobReport } from "./reporters/blob";
import { formatAnnotation, runAnnotations } from "./reporters/github";
import { formatJunit } from "./reporters/junit";

export interface AfterRunOptions {
  root: string;
  /** --json: the event stream is on stdout (the repeats' summaries join it as JSON lines). */
  json: boolean;
  text: boolean;
  coverage?: { dir: string; min?: number };
  repeat: number;
  passRate?: number;
  /** Files that ran once on purpose (deterministic) under --repeat. */
  deterministic: Set<string>;
  /** The JUnit report: into this file, or on stdout when none is named. */
  junit?: { file?: string };
  /** The blob report: this file (`merge-reports` reads the folder). */
  blob?: { file: string; shard?: { index: number; count: number } };
  github: boolean;
}

const out = (s: string) => process.stdout.write(s);
const err = (s: string) => process.stderr.write(s);
/** Something machine-readable is on stdout (--json, a JUnit report without a file): notes go to stderr. */
const stdoutTaken = (o: AfterRunOptions) => o.json || (o.junit !== undefined && !o.junit.file);

/** Coverage: the table and the files; false when it is under --coverage-min or could not be made. */
async function reportCoverage(records: FileRecord[], o: AfterRunOptions, model: CoverageModel): Promise<boolean> {
  try {
    const written = writeCoverage(coverageOf(model, records, o.root), o.root, o.coverage!.dir, o.coverage!.min);
    (stdoutTaken(o) || !o.text ? err : out)(written.table);
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
 *  coverage under --coverage-min, a report that could not be written). */
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
  if (o.junit) {
    const xml = formatJunit(records, o.root, summaries);
    if (o.junit.file) {
      writeFileSync(resolve(o.root, o.junit.file), xml);
      (stdoutTaken(o) || !o.text ? err : out)(`wrote the JUnit report to ${relative(o.root, resolve(o.root, o.junit.file))}\n`);
    } else out(xml);
  }
  if (o.blob) {
    const blob: BlobReport = {
      agentLensBlob: 1, root: o.root, ...(o.blob.shard ? { shard: o.blob.shard } : {}), repeat: o.repeat, ...(o.passRate !== undefined ? { passRate: o.passRate } : {}),
      deterministic: [...o.deterministic].sort(), records, ...(coverage ? { coverage } : {}),
    };
    const file = writeBlob(resolve(o.root, o.blob.file), blob);
    (stdoutTaken(o) || !o.text ? err : out)(`wrote the blob report to ${relative(o.root, file)}\n`);
  }
  if (o.github) {
    const lines = runAnnotations(records, o.root, summaries).map(formatAnnotation).join("");
    // the runner reads workflow commands on either stream: keep stdout's JSON / XML clean
    (stdoutTaken(o) ? err : out)(lines);
  }
  return ok;
}
