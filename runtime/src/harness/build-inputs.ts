// What a build read besides the files it bundled, so a cached bundle is reused only when none of it changed
// (bundle.ts hashes each path's state into the key: missing, a folder, or a file's content):
// - the tsconfig.json / jsconfig.json / package.json of every folder above every source file of the user's
//   (esbuild takes the nearest tsconfig, and package.json for "type", "imports", "sideEffects"), and each
//   tsconfig's whole `extends` chain (relative files and packages, JSONC, arrays of bases);
// - for every import in the user's code, the places esbuild looked for it before the file it found
//   (`./helper` → helper, helper.tsx, helper.ts, helper.jsx before helper.js; `./lib` → lib.ts … and
//   lib/package.json before lib/index.ts): a file appearing at one of them changes what is built;
// - for every package import, the node_modules/<name> folder of each folder from the importer up, and the
//   package.json of the copy found (its `exports` / `main` decide the file, also for the packages kept
//   external, which the bundle imports by path).
// Not covered: a `paths` mapping with several targets where a file appears under an earlier target than
// the one used (the tsconfig itself is covered), and package.json files inside installed packages other
// than the package's own (a reinstall changes the files the bundle was built from anyway).
import type { Metafile } from "esbuild";
import { parse } from "jsonc-parser";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, extname, isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { packageNameOf } from "./packages";

/** esbuild's resolveExtensions default (the harness does not change it), in its order. */
const EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json"];
/** esbuild's TypeScript rewrite: `./x.js` also finds x.ts / x.tsx. */
const REWRITES: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".ts", ".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };
const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json", "package.json"];

/** Every path whose state the build depended on, beyond the bundled inputs (sorted, unique). `libraries`:
 *  the managed specifiers the user's code imports from its library layer (their imports in the metafile
 *  name the layer's file, not the package). */
export function buildReads(metafile: Metafile, workspace: string, userFiles: ReadonlySet<string>, libraries: readonly string[] = []): string[] {
  const out = new Set<string>();
  const dirs = new Set<string>();
  for (const file of userFiles) dirs.add(dirname(file));
  for (const dir of ancestorsOf(dirs)) for (const name of CONFIG_NAMES) out.add(join(dir, name));
  const followed = new Set<string>();
  for (const file of [...out]) if (!file.endsWith("package.json") && existsSync(file)) extendsChain(file, out, followed);
  for (const [input, info] of Object.entries(metafile.inputs)) {
    const importer = resolve(workspace, input);
    if (!userFiles.has(importer)) continue;
    for (const imp of info.imports) {
      const found = resolvedPath(imp.path, workspace);
      // esbuild gives no `original` for an import a plugin made external: a package the harness keeps
      // external, named here by the node_modules folder it resolved into.
      const spec = imp.original ?? (found ? installedPackageOf(found) : undefined);
      if (!spec || isBuiltin(spec) || spec.startsWith("data:")) continue;
      if (spec.startsWith(".") || isAbsolute(spec)) lookedFor(resolve(dirname(importer), spec), found, out);
      else {
        packageLookups(spec, dirname(importer), found, out);
        // Mapped by tsconfig `paths` to a file of the user's: what was looked for around the file it reached.
        if (found && !found.includes(`${sep}node_modules${sep}`) && isAbsolute(found)) lookedFor(found.slice(0, found.length - extname(found).length), found, out);
      }
    }
  }
  for (const spec of libraries) for (const dir of dirs) packageLookups(spec, dir, undefined, out);
  for (const f of userFiles) out.delete(f);
  return [...out].sort();
}

/** The package a path inside node_modules belongs to ("@scope/name" or "name"). */
function installedPackageOf(path: string): string | undefined {
  const marker = `${sep}node_modules${sep}`;
  const at = path.lastIndexOf(marker);
  if (at < 0) return undefined;
  const parts = path.slice(at + marker.length).split(sep);
  return parts[0]?.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function ancestorsOf(dirs: Iterable<string>): Set<string> {
  const all = new Set<string>();
  for (let dir of dirs) {
    while (!all.has(dir)) {
      all.add(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return all;
}

function resolvedPath(path: string, workspace: string): string | undefined {
  if (path.startsWith("file://")) {
    try {
      return fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(path) ? path : path.includes(":") ? undefined : resolve(workspace, path);
}

/** esbuild's candidates for a relative import of `base`, in its order, up to the one it found (all of them
 *  when it found none of them: a package.json `main` pointed elsewhere, say). */
function lookedFor(base: string, found: string | undefined, out: Set<string>): void {
  const ext = extname(base);
  const candidates = [
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...(REWRITES[ext] ?? []).map((e) => base.slice(0, -ext.length) + e),
    join(base, "package.json"),
    ...EXTENSIONS.map((e) => join(base, `index${e}`)),
  ];
  for (const candidate of candidates) {
    if (candidate === found) return;
    out.add(candidate);
  }
}

/** A package import: the node_modules/<name> folder of every folder from the importer up, and the
 *  package.json of the copy the import resolved into. */
function packageLookups(spec: string, fromDir: string, found: string | undefined, out: Set<string>): void {
  const name = packageNameOf(spec);
  for (const dir of ancestorsOf([fromDir])) out.add(join(dir, "node_modules", name));
  const marker = `${sep}node_modules${sep}${name}${sep}`;
  const at = found?.lastIndexOf(marker) ?? -1;
  if (found && at >= 0) out.add(join(found.slice(0, at + marker.length), "package.json"));
}

/** Follows a tsconfig's `extends` (a string or, since TypeScript 5.0, an array), adding every candidate
 *  path looked at: a relative base with and without `.json`, a package's file from node_modules up. */
function extendsChain(config: string, out: Set<string>, followed: Set<string>): void {
  if (followed.has(config)) return; // a cycle (TypeScript refuses it; esbuild says so)
  followed.add(config);
  let bases: unknown;
  try {
    bases = (parse(readFileSync(config, "utf8")) as { extends?: unknown } | undefined)?.extends;
  } catch {
    return; // unreadable: its content is in the key anyway
  }
  for (const base of typeof bases === "string" ? [bases] : Array.isArray(bases) ? bases : []) {
    if (typeof base !== "string" || !base) continue;
    const candidates = base.startsWith(".") || isAbsolute(base)
      ? [resolve(dirname(config), base), resolve(dirname(config), `${base}.json`)]
      : [...ancestorsOf([dirname(config)])].flatMap((dir) => {
        const inModules = join(dir, "node_modules", base);
        return [inModules, `${inModules}.json`, join(inModules, "tsconfig.json"), join(dir, "node_modules", packageNameOf(base), "package.json")];
      });
    for (const candidate of candidates) {
      out.add(candidate);
      if (candidate.endsWith(".json") && !candidate.endsWith("package.json") && existsSync(candidate)) extendsChain(candidate, out, followed);
    }
  }
}
