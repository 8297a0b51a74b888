// `agent-lens run --coverage`: the coverage model is built on a worker thread from the moment the file list
// is known (the analysis then overlaps the runs), and once the runs are done their visit records are tied
// to it, counted, printed as a table and written as coverage.json and lcov.info into the coverage folder
// (`coverage/agents` unless --coverage-dir says otherwise; written only because the command asked).
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { Worker } from "node:worker_threads";
import type { CoverageReport } from "@agent-lens/protocol";
import type { FileRecord } from "../run-record";
import { computeCoverage } from "@agent-lens/coverage/compute";
import { formatLcov } from "./lcov";
import { matchVisits } from "@agent-lens/coverage/match";
import type { CoverageModel } from "./model";
import { loadCachedModel, modelCacheFile, saveCachedModel } from "./model-cache";
import { formatCoverageTable } from "./table";

export const DEFAULT_COVERAGE_DIR = join("coverage", "agents");

/** Paths as coverage files write them: relative to the root, "/"-separated (absolute when outside it). */
function showPath(root: string): (file: string) => string {
  return (file) => {
    if (!file) return file;
    const rel = relative(root, file);
    return rel.startsWith("..") || resolve(root, rel) !== resolve(file) ? file : rel.split(sep).join("/");
  };
}

/** The model of `files` (absolute eval file paths): from the cache folder when none of the files it was
 *  read from changed, else built on a worker thread (then kept there). No cache folder: always built. */
export function startCoverageModel(roots: string[], files: string[], cacheDir?: string): Promise<CoverageModel> {
  const entry = cacheDir ? modelCacheFile(cacheDir, roots, files, join(__dirname, "coverage-model.js")) : undefined;
  const cached = entry ? loadCachedModel(entry) : undefined;
  if (cached) return Promise.resolve(cached);
  return new Promise((done, fail) => {
    const worker = new Worker(join(__dirname, "coverage-worker.js"), { workerData: { roots, files, codeCacheDir: cacheDir && join(cacheDir, "v8") } });
    worker.once("message", (m: { model?: CoverageModel; inputs?: string[]; error?: string }) => {
      if (!m.model) return fail(new Error(`the analysis for coverage failed: ${m.error}`));
      if (entry) saveCachedModel(entry, m.model, m.inputs ?? [], roots);
      done(m.model);
    });
    worker.once("error", fail);
    worker.once("exit", (code) => fail(new Error(`the coverage worker exited (${code}) before it answered`)));
  });
}

/** The report of the records' visits against the model. */
export function coverageOf(model: CoverageModel, records: FileRecord[], root: string): CoverageReport {
  const { records: visits, unmatched } = matchVisits(model, records.map((r) => ({ file: r.file, results: r.results })));
  return computeCoverage(model, visits, unmatched, { root, show: showPath(root) });
}

export interface CoverageOutput {
  table: string;
  dir: string;
  /** Under --coverage-min: the sentence saying so. */
  belowMin?: string;
}

/** Writes coverage.json and lcov.info into `dir` (relative to root) and says what it wrote. */
export function writeCoverage(report: CoverageReport, root: string, dir: string, min: number | undefined): CoverageOutput {
  const out = resolve(root, dir);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "coverage.json"), `${JSON.stringify({ ...report, root: "." }, null, 2)}\n`);
  writeFileSync(join(out, "lcov.info"), formatLcov(report));
  const shown = showPath(root)(out);
  return {
    table: `${formatCoverageTable(report)}wrote ${shown}/coverage.json and ${shown}/lcov.info\n`,
    dir: out,
    ...(min !== undefined && report.percent < min ? { belowMin: `agent coverage ${report.percent}% is under --coverage-min ${min}%` } : {}),
  };
}
