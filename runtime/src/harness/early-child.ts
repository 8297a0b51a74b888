// The child for one file started before its bundle is checked (the CLI's `startEarly`): on a guess, from
// the file's last build, of how its child starts, so the process start-up (and the libraries' loading)
// overlaps the cache check. runEvalFile uses it only when it fits the bundle exactly (child-process.ts's
// mismatch), else ends it and starts another. Kept light (no esbuild, no bundler): the CLI starts it
// before it loads the rest of the harness.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RuntimeMode } from "@agent-lens/protocol";
import type { HarnessAssets } from "./assets";
import type { BundleMeta } from "./bundle";
import { manifestFileOf, type BundleManifest } from "./bundle-manifest";
import { filesIntact, readJson } from "./cache";
import { HarnessChild, type ChildSpec } from "./child-process";
import type { BundleLibraries } from "./libraries";

/** How the entry's child will start: whether its bundle runs node:test, and the libraries it imports (what
 *  the child may preload), from the entry's last build when there is one, else node:test from the entry's
 *  text and no libraries. */
export function guessChild(entry: string, workspace: string, mode: RuntimeMode, cacheDir: string): { nodeTest: boolean; libraries?: BundleLibraries } {
  const manifest = readJson<BundleManifest>(manifestFileOf(cacheDir, entry, workspace, mode));
  const last = typeof manifest?.key === "string" ? readJson<BundleMeta>(join(cacheDir, "bundles", `${manifest.key}.json`)) : undefined;
  if (typeof last?.usesNodeTest === "boolean") {
    const libs = last.libs;
    const wellFormed = libs && Array.isArray(libs.entries) && Array.isArray(libs.files) && libs.entries.every((e) => typeof e === "string");
    return { nodeTest: last.usesNodeTest, libraries: wellFormed ? libs : undefined };
  }
  try {
    return { nodeTest: /\bfrom\s*["'](?:node:)?test["']|\b(?:require|import)\s*\(\s*["'](?:node:)?test["']/.test(readFileSync(entry, "utf8")) };
  } catch {
    return { nodeTest: false };
  }
}

export interface EarlyRequest {
  file: string;
  workspace: string;
  /** What the file's run will give the child (ChildSpec), less what is guessed. */
  env: ChildSpec["env"];
  heapMb: number;
  mode: RuntimeMode;
  cacheDir: string;
  assets: HarnessAssets;
}

/** Starts the child: node:test as the last build said, preloading that build's libraries when every file
 *  of their layer still has its hash (the layer is content-addressed: a changed library is another file,
 *  and a child that preloaded one the file no longer imports is ended when the bundle says so). */
export function startEarlyChild(request: EarlyRequest): HarnessChild {
  const file = resolve(request.file);
  const workspace = resolve(request.workspace);
  const guess = guessChild(file, workspace, request.mode, request.cacheDir);
  const libraries = guess.libraries;
  const preload = libraries && libraries.entries.length && filesIntact(libraries.files) ? libraries.entries : [];
  return new HarnessChild({ cwd: workspace, env: request.env, heapMb: request.heapMb, nodeTest: guess.nodeTest, cacheDir: request.cacheDir }, request.assets, preload);
}
