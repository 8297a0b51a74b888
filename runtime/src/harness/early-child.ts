// The child for one file started before its bundle is checked (the CLI's `startEarly`): on a guess, from
// the file's last build, of how its child starts, so the process start-up (and the libraries' loading)
// overlaps the cache check. runEvalFile uses it only when it fits the bundle exactly (child-process.ts's
// mismatch), else ends it and starts another. Kept light (esbuild is loaded only when a build is coming):
// the CLI starts it before it loads the rest of the harness.
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RuntimeMode } from "@agent-lens/protocol";
import type { HarnessAssets } from "./assets";
import type { BundleMeta } from "./bundle";
import { manifestFileOf, type BundleManifest } from "./bundle-manifest";
import { filesIntact, readJson } from "./cache";
import { HarnessChild, type ChildSpec } from "./child-process";
import type { BundleLibraries } from "./libraries";

export interface ChildGuess {
  nodeTest: boolean;
  libraries?: BundleLibraries;
  /** The entry has no build, or one of its last build's inputs changed since (the bundle will be built). */
  willBuild: boolean;
}

/** How the entry's child will start: whether its bundle runs node:test, and the libraries it imports (what
 *  the child may preload), from the entry's last build when there is one, else node:test from the entry's
 *  text and no libraries. */
export function guessChild(entry: string, workspace: string, mode: RuntimeMode, cacheDir: string): ChildGuess {
  const manifest = readJson<BundleManifest>(manifestFileOf(cacheDir, entry, workspace, mode));
  const metaFile = typeof manifest?.key === "string" ? join(cacheDir, "bundles", `${manifest.key}.json`) : undefined;
  const last = metaFile ? readJson<BundleMeta>(metaFile) : undefined;
  if (metaFile && typeof last?.usesNodeTest === "boolean") {
    const libs = last.libs;
    const wellFormed = libs && Array.isArray(libs.entries) && Array.isArray(libs.files) && libs.entries.every((e) => typeof e === "string");
    return { nodeTest: last.usesNodeTest, libraries: wellFormed ? libs : undefined, willBuild: changedSince(manifest!.inputs, metaFile) };
  }
  try {
    return { nodeTest: /\bfrom\s*["'](?:node:)?test["']|\b(?:require|import)\s*\(\s*["'](?:node:)?test["']/.test(readFileSync(entry, "utf8")), willBuild: true };
  } catch {
    return { nodeTest: false, willBuild: true };
  }
}

/** Whether a file of `inputs` was modified (or removed) after `builtFile` was written: by modification
 *  times only, a guess (the cache check compares contents). */
function changedSince(inputs: unknown, builtFile: string): boolean {
  try {
    const built = statSync(builtFile).mtimeMs;
    return !Array.isArray(inputs) || inputs.some((f) => typeof f !== "string" || statSync(f).mtimeMs > built);
  } catch {
    return true;
  }
}

/** Starts esbuild's service process (the first build otherwise waits for it): a build is coming. */
function startBundler(): void {
  try {
    void (require("esbuild") as typeof import("esbuild")).transform("").catch(() => undefined);
  } catch {
    // no esbuild here: the build says so when it runs
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
  // The hashes are checked once the process is on its way (it needs the list only when Node has started).
  const preload = () => (libraries && libraries.entries.length && filesIntact(libraries.files) ? libraries.entries : []);
  const child = new HarnessChild({ cwd: workspace, env: request.env, heapMb: request.heapMb, nodeTest: guess.nodeTest, cacheDir: request.cacheDir }, request.assets, preload);
  // A build is coming: esbuild's own process starts while the rest of the harness loads.
  if (guess.willBuild) startBundler();
  return child;
}
