// The coverage model of a set of eval files, kept in the harness's private cache folder (`coverage/`) with
// the SHA-256 of every file the analysis read for it (the eval files, what they import, the roots'
// tsconfig.json): when none changed, `run --coverage` takes the model from here and the analysis never
// loads (it is most of what coverage costs a run). One entry per set of eval files, roots and build.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CoverageModel } from "./model";

interface Entry {
  inputs: Array<{ file: string; sha: string }>;
  model: CoverageModel;
}

function sha(file: string): string {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return "missing";
  }
}

/** Where the entry for these eval files and roots, analyzed by this build of the analysis, is kept. */
export function modelCacheFile(cacheDir: string, roots: string[], files: string[], analysisBundle: string): string {
  let build = analysisBundle;
  try {
    const st = statSync(analysisBundle);
    build += `\n${st.size}\n${st.mtimeMs}`;
  } catch {
    // no bundle: the key still differs from a built one
  }
  const key = createHash("sha256").update(JSON.stringify({ roots, files: [...files].sort(), build })).digest("hex").slice(0, 24);
  return join(cacheDir, "coverage", `${key}.json`);
}

/** The cached model, when every file it was read from is unchanged. */
export function loadCachedModel(file: string): CoverageModel | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as Entry;
    return entry.inputs.every((i) => sha(i.file) === i.sha) ? entry.model : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the model with the hashes of the files it was read from (`roots`' tsconfig.json among them). */
export function saveCachedModel(file: string, model: CoverageModel, inputs: string[], roots: string[]): void {
  try {
    const all = [...new Set([...inputs, ...roots.map((r) => join(r, "tsconfig.json"))])].sort();
    const entry: Entry = { inputs: all.map((f) => ({ file: f, sha: sha(f) })), model };
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // an unwritable folder: the next run analyzes again
  }
}
