// The coverage worker of `agent-lens run --coverage` (dist/cli/coverage-worker.js): builds the coverage
// model from the analysis (dist/cli/coverage-model.js, loaded through V8's code cache) on another thread
// while the eval files run, so the analysis' load and work overlap the runs, and run.js never loads it.
// It answers with the model, then writes the code cache when it had none that fit, then ends.
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { requireWithCodeCache } from "./code-cache";
import type { buildCoverageModel } from "./static-model";

const { roots, files, codeCacheDir } = workerData as { roots: string[]; files: string[]; codeCacheDir?: string };
try {
  const analysis = requireWithCodeCache<{ buildCoverageModel: typeof buildCoverageModel }>(join(__dirname, "coverage-model.js"), codeCacheDir);
  parentPort!.postMessage(analysis.exports.buildCoverageModel(roots, files));
  analysis.save();
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.stack ?? error.message : String(error) });
}
