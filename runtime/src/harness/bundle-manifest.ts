// A bundle's manifest in the cache: one per entry file, workspace and runtime mode, naming the key of the
// entry's last build and what it was built from (bundle.ts writes and checks it; early-child.ts reads it
// to guess how the next child for the entry starts).
import { join } from "node:path";
import type { RuntimeMode } from "@agent-lens/protocol";
import { sha } from "./cache";

export interface BundleManifest {
  key: string;
  inputs: string[];
  /** What else the build read (build-inputs.ts): config files, the places looked for a file, package folders. */
  reads: string[];
  /** Earlier keys of this entry and when they were superseded: their bundles are removed only once no run
   *  can still be about to load them (bundle.ts). */
  previous?: Array<{ key: string; since: number }>;
  /** The managed specifiers the user's code imports and what each resolved to (split bundles only). */
  libraries?: Array<{ spec: string; file: string }>;
}

export function manifestFileOf(cacheDir: string, entry: string, workspace: string, mode: RuntimeMode): string {
  return join(cacheDir, "manifests", `${sha(`${entry}\n${workspace}\n${mode}`)}.json`);
}

