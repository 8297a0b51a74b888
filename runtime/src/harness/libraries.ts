// The library layer of a bundle: the managed packages a file imports (@statelyai/agent, @falai/agent, zod,
// ai, xstate — whichever copies resolve-plugin.ts picks) built once into their own ES modules in the cache,
// one file per imported specifier plus shared chunks, which the file's own bundle imports by URL. Files
// that import the same specifiers from the same copies share one build, a bundle of the user's code alone
// rebuilds in milliseconds, and a warm child (warm-children.ts) can load the libraries before the file is
// known: the bundle then imports the very modules it already has (an ES module is loaded once per URL).
// esbuild's code splitting keeps one instance of every module across the entries (zod's schemas, xstate's
// actors, our AgentError are the same for the user's code and our runtime). No source map: frames inside
// the libraries show positions in these files (the user's files are mapped by their own bundle).
import type { Metafile } from "esbuild";
import { basename, join, resolve } from "node:path";
import type { HarnessAssets } from "./assets";
import { fileHash, filesIntact, readJson, sha, sha256Hex, writeAtomic } from "./cache";
import { entryName, librariesFolder as folderOf } from "./library-urls";
import type { RuntimeChoice, RuntimeMode } from "@agent-lens/protocol";
import type { GroupDecision } from "./packages";
import { resolvePlugin, type ResolveContext } from "./resolve-plugin";

/** A managed specifier the user's code imports, and the file it resolved to for them. */
export interface LibraryImport {
  spec: string;
  file: string;
}

export interface LibraryLayer {
  key: string;
  /** Specifier → the built file the user's bundle imports for it. */
  entries: Record<string, string>;
  /** Every built file with its SHA-256 (checked before anything of it runs). */
  files: Array<{ file: string; sha256: string }>;
  /** Which copy our runtime's own imports resolved to (the user's imports are reported by their bundle). */
  runtime: Record<string, RuntimeChoice>;
  /** Specifier → the names its entry exports (an import of any other name is the user's mistake). */
  exports: Record<string, string[]>;
}

/** The libraries a bundle imports from the cache: the entry files it imports (what a warm child preloads)
 *  and every file of their layer with its SHA-256. */
export interface BundleLibraries {
  entries: string[];
  files: Array<{ file: string; sha256: string }>;
}

interface Manifest {
  key: string;
  inputs: string[];
}

export interface LayerRequest {
  cacheDir: string;
  workspace: string;
  fromDir: string;
  mode: RuntimeMode;
  assets: HarnessAssets;
  decisions: Map<string, GroupDecision>;
  imports: readonly LibraryImport[];
}

/** What decides a layer's content, apart from the content of its inputs. */
function setKeyOf(req: LayerRequest): string {
  return sha([
    `agent-lens ${req.assets.version} node ${process.version}`, req.mode,
    JSON.stringify([...req.decisions].map(([g, d]) => [g, d.choice, d.installed?.root, d.installed?.version])),
    ...[...req.imports].sort((a, b) => (a.spec < b.spec ? -1 : 1)).map((i) => `${i.spec} ${i.file}`),
  ].join("\n"));
}

function keyOf(setKey: string, inputs: readonly string[]): string {
  return sha([setKey, ...[...new Set(inputs)].sort().map((f) => `${f}:${fileHash(f)}`)].join("\n"));
}


/** The layer for these imports when it is built, its inputs unchanged and its files intact. */
export function currentLayer(req: LayerRequest): LibraryLayer | undefined {
  const setKey = setKeyOf(req);
  const manifest = readJson<Manifest>(join(folderOf(req.cacheDir), "manifests", `${setKey}.json`));
  if (!manifest || typeof manifest.key !== "string" || !Array.isArray(manifest.inputs)) return undefined;
  const key = keyOf(setKey, manifest.inputs);
  if (key !== manifest.key) return undefined;
  const layer = readJson<LibraryLayer>(join(folderOf(req.cacheDir), key, "layer.json"));
  return layer && layer.key === key && Array.isArray(layer.files) && layer.exports && filesIntact(layer.files) ? layer : undefined;
}

const building = new Map<string, Promise<LibraryLayer>>();

/** Builds the layer (esbuild errors are thrown as esbuild throws them). Concurrent requests for one set
 *  in this process share one build. */
export function buildLayer(build: typeof import("esbuild").build, req: LayerRequest): Promise<LibraryLayer> {
  const setKey = setKeyOf(req);
  let pending = building.get(setKey);
  if (!pending) {
    pending = buildOnce(build, req, setKey).finally(() => building.delete(setKey));
    building.set(setKey, pending);
  }
  return pending;
}

async function buildOnce(build: typeof import("esbuild").build, req: LayerRequest, setKey: string): Promise<LibraryLayer> {
  const ctx: ResolveContext = { mode: req.mode, assets: req.assets, fromDir: req.fromDir, decisions: req.decisions, used: new Map(), libraryRoots: new Set() };
  const pendingDir = join(folderOf(req.cacheDir), "pending");
  const result = await build({
    entryPoints: req.imports.map((i) => ({ in: i.file, out: entryName(i.spec) })),
    absWorkingDir: req.workspace, bundle: true, splitting: true, write: false, outdir: pendingDir,
    platform: "node", format: "esm", target: `node${process.versions.node.split(".")[0]}`, outExtension: { ".js": ".mjs" },
    chunkNames: "chunk-[hash]", metafile: true, logLevel: "silent",
    // CommonJS code inside a library requires Node built-ins (and packages kept external) through this.
    banner: { js: `import { createRequire as __agentLensCreateRequire } from "node:module"; const require = __agentLensCreateRequire(import.meta.url);` },
    plugins: [resolvePlugin(ctx)],
  });
  const metafile: Metafile = result.metafile!;
  const inputs = Object.keys(metafile.inputs).map((f) => resolve(req.workspace, f));
  const key = keyOf(setKey, inputs);
  const dir = join(folderOf(req.cacheDir), key);
  const files = result.outputFiles!.map((f) => ({ file: join(dir, basename(f.path)), text: f.text }));
  for (const f of files) writeAtomic(f.file, f.text);
  const layer: LibraryLayer = {
    key,
    entries: Object.fromEntries(req.imports.map((i) => [i.spec, join(dir, `${entryName(i.spec)}.mjs`)])),
    files: files.map((f) => ({ file: f.file, sha256: sha256Hex(f.text) })),
    runtime: Object.fromEntries(ctx.used),
    exports: Object.fromEntries(req.imports.map((i) => {
      const output = Object.entries(metafile.outputs).find(([path]) => basename(path) === `${entryName(i.spec)}.mjs`);
      return [i.spec, output?.[1].exports ?? []];
    })),
  };
  writeAtomic(join(dir, "layer.json"), JSON.stringify(layer));
  writeAtomic(join(folderOf(req.cacheDir), "manifests", `${setKey}.json`), JSON.stringify({ key, inputs } satisfies Manifest));
  return layer;
}
