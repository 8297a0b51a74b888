// The child for one file started before its bundle is checked (the CLI's `startEarly`), so the process
// start-up (and the libraries' loading) overlaps the cache check. runEvalFile uses it only when it fits the
// bundle exactly (child-process.ts's mismatch), else ends it and starts another. Kept light (no hashing
// before the spawn, esbuild only when a build is coming): the CLI starts it before it loads the rest of
// the harness.
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RuntimeMode } from "@agent-lens/protocol";
import type { HarnessAssets } from "./assets";
import type { BundleMeta } from "./bundle";
import { manifestFileOf, type BundleManifest } from "./bundle-manifest";
import { filesIntact, readJson } from "./cache";
import { HarnessChild, type ChildSpec } from "./child-process";
import type { BundleLibraries } from "./libraries";

/** What the entry's last build says about its next child. */
export interface LastBuild {
  nodeTest: boolean;
  libraries?: BundleLibraries;
  /** One of the build's inputs was modified after it (by modification time: the bundle will be rebuilt). */
  stale: boolean;
}

/** The entry's last build in `mode`, when the cache has one. */
function lastBuildOf(entry: string, workspace: string, mode: RuntimeMode, cacheDir: string): LastBuild | undefined {
  const manifest = readJson<BundleManifest>(manifestFileOf(cacheDir, entry, workspace, mode));
  const metaFile = typeof manifest?.key === "string" ? join(cacheDir, "bundles", `${manifest.key}.json`) : undefined;
  const last = metaFile ? readJson<BundleMeta>(metaFile) : undefined;
  if (!metaFile || typeof last?.usesNodeTest !== "boolean") return undefined;
  const libs = last.libs;
  const wellFormed = libs && Array.isArray(libs.entries) && Array.isArray(libs.files) && libs.entries.every((e) => typeof e === "string");
  return { nodeTest: last.usesNodeTest, libraries: wellFormed ? libs : undefined, stale: changedSince(manifest!.inputs, metaFile) };
}

/** Whether the entry's own text imports node:test (a helper module that does is not seen). */
function textImportsNodeTest(entry: string): boolean {
  try {
    return /\bfrom\s*["'](?:node:)?test["']|\b(?:require|import)\s*\(\s*["'](?:node:)?test["']/.test(readFileSync(entry, "utf8"));
  } catch {
    return false;
  }
}

/** Whether a file of `inputs` was modified (or removed) after `builtFile` was written. */
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
  /** The runtime mode of the run (as a function: worked out after the spawn, for it only picks the last
   *  build to read; undefined: none is read, nothing is preloaded). */
  mode: RuntimeMode | (() => RuntimeMode | undefined);
  cacheDir: string;
  assets: HarnessAssets;
}

/** Starts the child. It is spawned on the entry's text (node:test or not) before anything is hashed; the
 *  last build, read while Node starts up in it, gives the libraries it preloads, once every file of their
 *  layer is found intact by hash (the layer is content-addressed: a changed library is another file, and
 *  a child that preloaded one the file no longer imports is ended when the bundle says so). When the last
 *  build says otherwise about node:test (a helper module imports it), that child is ended at once and one
 *  with the build's answer takes its place. */
export function startEarlyChild(request: EarlyRequest): HarnessChild {
  const file = resolve(request.file);
  const workspace = resolve(request.workspace);
  const specOf = (nodeTest: boolean): ChildSpec => ({ cwd: workspace, env: request.env, heapMb: request.heapMb, nodeTest, cacheDir: request.cacheDir });
  const preloadOf = (last: LastBuild | undefined) => {
    const libraries = last?.libraries;
    return libraries && libraries.entries.length && filesIntact(libraries.files) ? libraries.entries : [];
  };
  const fromText = textImportsNodeTest(file);
  let last: LastBuild | undefined;
  const child = new HarnessChild(specOf(fromText), request.assets, () => {
    const mode = typeof request.mode === "function" ? request.mode() : request.mode;
    last = mode ? lastBuildOf(file, workspace, mode, request.cacheDir) : undefined;
    return (last?.nodeTest ?? fromText) === fromText ? preloadOf(last) : [];
  });
  if (!last || last.stale) startBundler(); // a build is coming: esbuild's own process starts meanwhile
  if (!last || last.nodeTest === fromText) return child;
  void child.discard();
  return new HarnessChild(specOf(last.nodeTest), request.assets, preloadOf(last));
}
