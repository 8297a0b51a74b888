// Blob reports (`agent-lens run --reporter blob`, one per shard) and their merge (`agent-lens
// merge-reports DIR`): a blob holds everything the reports after a run are made from — each file's record
// (the harness's result, its output's tail, its runtime reports), the --repeat settings, and the coverage
// model when the shard ran with --coverage — so the merged report is the one an unsharded run would give.
// Paths are absolute in a blob; it names the folder it ran in (`root`), and a merge in another folder (a CI
// job with the checkout elsewhere) moves them there.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CoverageModel } from "../coverage/model";
import { mergeModels } from "../coverage/model";
import { sortRecords, type FileRecord } from "../run-record";

export const DEFAULT_BLOB_DIR = "agent-lens-reports";

export interface BlobReport {
  agentLensBlob: 1;
  root: string;
  shard?: { index: number; count: number };
  repeat: number;
  passRate?: number;
  /** Files that ran once under --repeat because their run made no live model call. */
  deterministic: string[];
  records: FileRecord[];
  coverage?: CoverageModel;
}

export function blobName(shard: { index: number; count: number } | undefined): string {
  return shard ? `blob-${shard.index}-${shard.count}.json` : "blob.json";
}

/** Writes the blob to `file` (its folder made when missing); returns the path. */
export function writeBlob(file: string, blob: BlobReport): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(blob));
  return file;
}

export class BlobError extends Error {}

/** Every blob in `dir`, its paths moved from the folder it ran in to `root`. */
export function readBlobs(dir: string, root: string): BlobReport[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
  } catch {
    throw new BlobError(`${dir}: no such folder`);
  }
  const blobs: BlobReport[] = [];
  for (const name of names) {
    let text = readFileSync(join(dir, name), "utf8");
    let blob: BlobReport;
    try {
      blob = JSON.parse(text) as BlobReport;
    } catch {
      throw new BlobError(`${join(dir, name)} is not JSON`);
    }
    if (blob?.agentLensBlob !== 1 || !Array.isArray(blob.records)) throw new BlobError(`${join(dir, name)} is not an agent-lens blob report`);
    const from = blob.root;
    if (from && resolve(from) !== resolve(root)) {
      // every path the blob holds starts with the folder it ran in (as JSON text: escaped the same way)
      const quoted = (p: string) => JSON.stringify(p + (p.endsWith("/") || p.endsWith("\\") ? "" : p.includes("\\") ? "\\" : "/")).slice(1, -1);
      text = text.split(quoted(from)).join(quoted(resolve(root)));
      blob = JSON.parse(text) as BlobReport;
    }
    blobs.push(blob);
  }
  if (!blobs.length) throw new BlobError(`${dir} holds no blob report (*.json written by agent-lens run --reporter blob)`);
  return blobs;
}

/** One run out of the shards': records by file, coverage models merged, the repeat settings of the first. */
export function mergeBlobs(blobs: BlobReport[]): Omit<BlobReport, "agentLensBlob" | "root" | "shard"> {
  const models = blobs.flatMap((b) => (b.coverage ? [b.coverage] : []));
  return {
    repeat: Math.max(...blobs.map((b) => b.repeat ?? 1)),
    ...(blobs.find((b) => b.passRate !== undefined) ? { passRate: blobs.find((b) => b.passRate !== undefined)!.passRate } : {}),
    deterministic: [...new Set(blobs.flatMap((b) => b.deterministic ?? []))].sort(),
    records: sortRecords(blobs.flatMap((b) => b.records)),
    ...(models.length ? { coverage: mergeModels(models) } : {}),
  };
}
