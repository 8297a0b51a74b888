// Bundles a user's eval file with esbuild (TypeScript, ESM and CommonJS, top-level await, tsconfig paths,
// inline source maps) into the cache, or reuses a cached bundle whose inputs have not changed. The user's
// code is built on its own and imports the managed libraries from their own build (libraries.ts); a file
// that cannot be split that way (a require() of one, two copies of one) gets one bundle holding both.
import type { BuildFailure, Message, Metafile } from "esbuild";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { harnessAssets, type HarnessAssets } from "./assets";
import { defaultCacheDir, fileHash, readJson, removeQuietly, sha, sha256Hex, usableCacheDir, writeAtomic } from "./cache";
import { buildReads } from "./build-inputs";
import type { FailureInfo, RuntimeChoice, RuntimeMode } from "@agent-lens/protocol";
import { manifestFileOf, type BundleManifest } from "./bundle-manifest";
import { decideRuntime, type GroupDecision } from "./packages";
import { resolvePlugin, type ResolveContext } from "./resolve-plugin";
import { trimSourceMap, type RawSourceMap } from "./sourcemap-trim";
import { buildLayer, currentLayer, type BundleLibraries, type LayerRequest, type LibraryLayer } from "./libraries";
import { libraryUrl, namesImportedFrom, withLibraryKey } from "./library-urls";

export interface BundleRequest {
  entry: string;
  workspace: string;
  mode?: RuntimeMode;
  cacheDir?: string;
  assets?: HarnessAssets;
}

/** What the child needs to run a bundle; stored next to it in the cache. */
export interface BundleMeta {
  entry: string;
  bundle: string;
  /** Source files of the user's own code (call sites and failure locations are taken from these). */
  userFiles: string[];
  usesNodeTest: boolean;
  runtime: Record<string, RuntimeChoice>;
  /** The cache key the bundle was built for (its file name) and the SHA-256 of its bytes: a cached
   *  bundle runs only when both still match. */
  key: string;
  sha256: string;
  /** The libraries the bundle imports from the cache's library builds (libraries.ts), when it does. */
  libs?: BundleLibraries;
}

export type BundleOutcome =
  | { ok: true; meta: BundleMeta; metaFile: string; cached: boolean; durationMs: number; cacheWarning?: string }
  | { ok: false; failure: FailureInfo; runtime: Record<string, RuntimeChoice>; durationMs: number; cacheWarning?: string };

type Req = Required<Omit<BundleRequest, "cacheDir">>;

/** A path's state for a cache key: missing, a folder, or a file's content. */
function stateOf(path: string): string {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return "missing"; // a file where a folder was looked into (ENOTDIR), or unreadable
  }
  return !st ? "missing" : st.isDirectory() ? "folder" : fileHash(path);
}

/** The cache key: our build, the runtime choices, the content of every file bundled, and the state of
 *  everything else the build read (`reads`, build-inputs.ts). */
function keyOf(req: Req, decisions: Map<string, GroupDecision>, inputs: string[], reads: string[], layer: LibraryLayer | undefined): string {
  const parts = [
    // Our version, and the build of the harness (a rebuilt dist/ in development invalidates old bundles).
    `agent-lens ${req.assets.version} ${fileHash(req.assets.child)} node ${process.version}`, req.entry, req.workspace, req.mode,
    `libraries ${layer?.key ?? "bundled in"}`,
    JSON.stringify([...decisions].map(([g, d]) => [g, d.choice, d.installed?.root, d.installed?.version])),
    ...[...new Set(inputs)].sort().map((f) => `${f}:${fileHash(f)}`),
    ...reads.map((f) => `${f}:${stateOf(f)}`),
  ];
  return sha(parts.join("\n"));
}

/** How long a bundle stays after a rebuild of its entry replaced it: a run that read the old manifest just
 *  before may still be about to load it (a warm child finishing its preloads, a loaded machine). */
const SUPERSEDED_KEPT_MS = 10 * 60_000;

function banner(entry: string): string {
  const dir = dirname(entry);
  // CommonJS code inside an ESM bundle still needs require; __dirname, __filename and import.meta.url
  // are the entry file's (the bundle itself lives in the cache).
  return [
    `import { createRequire as __agentLensCreateRequire } from "node:module";`,
    `const require = __agentLensCreateRequire(${JSON.stringify(entry)});`,
    `const __agentLensFilename = ${JSON.stringify(entry)}, __agentLensDirname = ${JSON.stringify(dir)}, __agentLensUrl = ${JSON.stringify(pathToFileURL(entry).href)};`,
  ].join(" ");
}

function toFailure(message: Message, workspace: string): FailureInfo {
  const text = message.text + (message.notes?.length ? `\n${message.notes.map((n) => n.text).join("\n")}` : "");
  const missing = /Could not resolve|No matching export|is not exported by|does not provide an export|^--runtime workspace/.test(message.text);
  return {
    message: missing ? text : `Syntax error: ${text}`,
    code: missing ? "missing-import" : "syntax",
    location: message.location
      ? { file: resolve(workspace, message.location.file), line: message.location.line, column: message.location.column + 1 }
      : undefined,
  };
}

function userFilesOf(metafile: Metafile, workspace: string, assets: HarnessAssets, libraryRoots: Set<string>): string[] {
  return Object.keys(metafile.inputs)
    .map((f) => resolve(workspace, f))
    .filter((f) => !f.includes(`${sep}node_modules${sep}`) && !f.startsWith(assets.dist + sep)
      && ![...libraryRoots].some((root) => f.startsWith(root + sep)));
}

function importsNodeTest(metafile: Metafile, userFiles: Set<string>, workspace: string): boolean {
  return Object.entries(metafile.inputs).some(([f, input]) =>
    userFiles.has(resolve(workspace, f)) && input.imports.some((i) => i.path === "node:test" || i.path === "test"));
}


/** The cached bundle for `key`, when its metadata names it and its bytes still hash to what was built. */
function verifiedCacheEntry(outdir: string, key: string): { meta: BundleMeta; metaFile: string } | undefined {
  const metaFile = join(outdir, `${key}.json`);
  const meta = readJson<BundleMeta>(metaFile);
  if (!meta || meta.key !== key || meta.bundle !== join(outdir, `${key}.mjs`) || typeof meta.sha256 !== "string") return undefined;
  try {
    return sha256Hex(readFileSync(meta.bundle)) === meta.sha256 ? { meta, metaFile } : undefined;
  } catch {
    return undefined;
  }
}

export async function bundleEvalFile(request: BundleRequest): Promise<BundleOutcome> {
  const started = performance.now();
  const assets = request.assets ?? harnessAssets();
  const req: Req = { entry: resolve(request.entry), workspace: resolve(request.workspace), mode: request.mode ?? "auto", assets };
  const { dir: cacheDir, warning: cacheWarning } = usableCacheDir(request.cacheDir ?? defaultCacheDir());
  const decisions = decideRuntime(req.mode, dirname(req.entry));
  const manifestFile = manifestFileOf(cacheDir, req.entry, req.workspace, req.mode);
  const outdir = join(cacheDir, "bundles");
  const layerRequest = (imports: LayerRequest["imports"]): LayerRequest => ({ cacheDir, workspace: req.workspace, fromDir: dirname(req.entry), mode: req.mode, assets, decisions, imports });

  const manifest = readJson<BundleManifest>(manifestFile);
  const strings = (list: unknown) => Array.isArray(list) && list.every((f) => typeof f === "string");
  if (manifest && typeof manifest.key === "string" && strings(manifest.inputs) && strings(manifest.reads)) {
    const layer = manifest.libraries ? currentLayer(layerRequest(manifest.libraries)) : undefined;
    const key = !manifest.libraries || layer ? keyOf(req, decisions, manifest.inputs, manifest.reads, layer) : undefined;
    const entry = key === manifest.key ? verifiedCacheEntry(outdir, manifest.key) : undefined;
    if (entry) return { ok: true, ...entry, cached: true, durationMs: performance.now() - started, cacheWarning };
  }

  const ctx: ResolveContext = { mode: req.mode, assets, fromDir: dirname(req.entry), decisions, used: new Map(), libraryRoots: new Set(), split: { cacheDir, imports: new Map() } };
  const runtime = (layer?: LibraryLayer) => ({ ...layer?.runtime, ...Object.fromEntries(ctx.used) });
  let result: BuildResult;
  let layer: LibraryLayer | undefined;
  let libraries: BundleManifest["libraries"];
  try {
    // esbuild is loaded only when something must be built: a warm run never pays for it. A plain require:
    // an import() of its CommonJS entry makes Node lex the whole file for its exports (~40 ms).
    const { build } = require("esbuild") as typeof import("esbuild");
    result = await buildUserCode(build, req, outdir, ctx);
    if (ctx.split!.problem) {
      // One bundle with the libraries in it, as Node would load them for this file.
      ctx.split = undefined;
      ctx.used.clear();
      result = await buildUserCode(build, req, outdir, ctx);
    } else if (ctx.split!.imports.size) {
      libraries = [...ctx.split!.imports].map(([spec, file]) => ({ spec, file }));
      const wanted = layerRequest(libraries);
      layer = currentLayer(wanted) ?? await buildLayer(build, wanted);
      if (importsMissingExport(result, cacheDir, layer)) {
        // A name the library does not export: one bundle, so esbuild says which and where, as it always did.
        layer = libraries = undefined;
        ctx.split = undefined;
        ctx.used.clear();
        result = await buildUserCode(build, req, outdir, ctx);
      }
    }
  } catch (error) {
    const messages = (error as BuildFailure).errors;
    const failure = messages?.length ? toFailure(messages[0]!, req.workspace) : cacheFailure(error, cacheDir) ?? { message: String((error as Error).message ?? error), code: "bundle" };
    return { ok: false, failure, runtime: runtime(), durationMs: performance.now() - started, cacheWarning };
  }

  const metafile = result.metafile!;
  const inputs = Object.keys(metafile.inputs).map((f) => resolve(req.workspace, f));
  const userFiles = userFilesOf(metafile, req.workspace, assets, ctx.libraryRoots);
  const reads = buildReads(metafile, req.workspace, new Set(userFiles), libraries?.map((l) => l.spec) ?? []);
  const key = keyOf(req, decisions, inputs, reads, layer);
  const bundle = join(outdir, `${key}.mjs`);
  const metaFile = join(outdir, `${key}.json`);
  // The source map's paths are relative to the output file, which moves from pending.mjs to <key>.mjs
  // in the same folder, so they stay right. Only the user's files and our runtime keep their mappings.
  let code = result.outputFiles!.find((f) => f.path.endsWith(".mjs"))!.text;
  if (layer && libraries) code = withLibraryKey(code, cacheDir, libraries.map((l) => l.spec), layer.key);
  const rawMap = JSON.parse(result.outputFiles!.find((f) => f.path.endsWith(".map"))!.text) as RawSourceMap;
  const mapped = new Set([...userFiles, ...inputs.filter((f) => f.startsWith(join(assets.dist, "runtime") + sep))]);
  const map = trimSourceMap(rawMap, (i) => mapped.has(resolve(outdir, rawMap.sources[i] ?? "")));
  const inline = `//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}\n`;
  const bundleText = code.replace(/\/\/# sourceMappingURL=\S+\s*$/, "") + inline;
  const meta: BundleMeta = {
    entry: req.entry, bundle, userFiles, usesNodeTest: importsNodeTest(metafile, new Set(userFiles), req.workspace), runtime: runtime(layer),
    key, sha256: sha256Hex(bundleText),
    libs: layer && libraries ? { entries: libraries.map((l) => layer!.entries[l.spec]!), files: layer.files } : undefined,
  };
  try {
    writeAtomic(bundle, bundleText);
    writeAtomic(metaFile, JSON.stringify(meta));
    writeAtomic(manifestFile, JSON.stringify({ key, inputs, reads, libraries, previous: supersede(outdir, manifest, key) } satisfies BundleManifest));
  } catch (error) {
    const failure = cacheFailure(error, cacheDir) ?? { message: `Could not write the bundle into the cache: ${String(error)}`, code: "cache" };
    return { ok: false, failure, runtime: runtime(layer), durationMs: performance.now() - started, cacheWarning };
  }
  return { ok: true, meta, metaFile, cached: false, durationMs: performance.now() - started, cacheWarning };
}

/** A failure to write into the cache folder (something in the way, no space, no permission), said as one:
 *  this file fails with it, the run goes on. */
function cacheFailure(error: unknown, cacheDir: string): FailureInfo | undefined {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code !== "string" || typeof e.syscall !== "string") return undefined;
  const what = e.code === "EEXIST" || e.code === "ENOTDIR" ? `something that is not a folder is in the way (${e.path ?? "?"})` : `${e.code} on ${e.path ?? "?"}`;
  return {
    message: `Not run: the bundle could not be written into the cache folder ${cacheDir}: ${what}. Remove it, or set AGENT_LENS_CACHE_DIR to another folder.`,
    code: "cache",
  };
}

/** The entry's earlier keys after a rebuild to `key`: the one just replaced joins them, and those replaced
 *  long enough ago are removed now. A bundle is never removed at the moment it is replaced: another run
 *  of the same file may have read the manifest a moment before and be about to load it (four runs of one
 *  file while it was edited: 2 of 140 failed with ENOENT on a bundle another run had deleted). Concurrent
 *  rebuilds may each drop the other's entry from this list: that bundle is then left, never removed early. */
function supersede(outdir: string, manifest: BundleManifest | undefined, key: string): BundleManifest["previous"] {
  const now = Date.now();
  const earlier = Array.isArray(manifest?.previous) ? manifest.previous.filter((p) => typeof p?.key === "string" && typeof p.since === "number") : [];
  if (manifest && typeof manifest.key === "string" && manifest.key !== key) earlier.push({ key: manifest.key, since: now });
  const kept: NonNullable<BundleManifest["previous"]> = [];
  for (const p of earlier) {
    if (p.key === key || kept.some((k) => k.key === p.key)) continue;
    if (now - p.since < SUPERSEDED_KEPT_MS) kept.push(p);
    else {
      removeQuietly(join(outdir, `${p.key}.mjs`));
      removeQuietly(join(outdir, `${p.key}.json`));
    }
  }
  return kept;
}

type BuildResult = import("esbuild").BuildResult<{ write: false; metafile: true }>;

/** Whether the user's code imports a name one of its library entries does not export. */
function importsMissingExport(result: BuildResult, cacheDir: string, layer: LibraryLayer): boolean {
  const code = result.outputFiles!.find((f) => f.path.endsWith(".mjs"))!.text;
  return Object.entries(layer.exports).some(([spec, exported]) => {
    const have = new Set(exported);
    return [...namesImportedFrom(code, libraryUrl(cacheDir, spec))].some((name) => !have.has(name));
  });
}

/** The user's file as one ES module (with the libraries in it unless `ctx.split` takes them out). */
function buildUserCode(build: typeof import("esbuild").build, req: Req, outdir: string, ctx: ResolveContext): Promise<BuildResult> {
  return build({
    entryPoints: [req.entry], absWorkingDir: req.workspace, bundle: true, write: false,
    outfile: join(outdir, "pending.mjs"), platform: "node", format: "esm", target: `node${process.versions.node.split(".")[0]}`,
    sourcemap: "external", sourcesContent: false, metafile: true, logLevel: "silent",
    banner: { js: banner(req.entry) },
    define: {
      __dirname: "__agentLensDirname", __filename: "__agentLensFilename",
      "import.meta.url": "__agentLensUrl", "import.meta.filename": "__agentLensFilename", "import.meta.dirname": "__agentLensDirname",
    },
    plugins: [resolvePlugin(ctx)],
  });
}
