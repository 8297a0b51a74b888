// Type declarations for the libraries Agent Lens bundles, laid out as installed packages under
// dist/types/node_modules, so TypeScript (through our tsserver plugin, client/tsserver-plugin) can resolve a
// workspace's imports of them when the workspace has no copy of its own:
//   - @statelyai/agent (with /ai-sdk and /testing) and @falai/agent: generated from runtime/src with the
//     TypeScript compiler API (never hand-written), one package each;
//   - zod, ai, xstate and @types/node, plus every package their declarations import: the .d.ts files and
//     package.json of the copies in our node_modules (the same versions dist/vendor bundles).
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, posix, relative, sep } from "node:path";

const require = createRequire(import.meta.url);

/** The packages a workspace imports directly that we ship declarations for (their imports follow). */
const VENDORED_ROOTS = ["zod", "ai", "xstate", "@types/node"];

/** Our libraries: package name → { subpath export → runtime/src entry }. */
const LIBRARIES = {
  "@statelyai/agent": { ".": "stately/index.ts", "./ai-sdk": "stately/ai-sdk.ts", "./testing": "stately/testing.ts" },
  "@falai/agent": { ".": "falai/index.ts" },
};

const BUILTINS = new Set(builtinModules);
const DECLARATION = /\.d\.(ts|cts|mts)$/;

export function buildDeclarations(root) {
  const started = Date.now();
  const types = join(root, "dist/types");
  const out = join(types, "node_modules");
  // The inputs are the runtime's sources, the installed packages and this script: unchanged, nothing to do.
  const stamp = inputsHash(root);
  const stampFile = join(types, ".inputs");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return { ms: Date.now() - started, packages: 0, cached: true };
  rmSync(types, { recursive: true, force: true });
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  const emitted = emitRuntimeDeclarations(root);
  for (const [name, entries] of Object.entries(LIBRARIES)) writeLibrary(join(out, name), name, entries, emitted, version);
  const copied = copyVendored(root, out);
  writeFileSync(stampFile, stamp);
  return { ms: Date.now() - started, packages: Object.keys(LIBRARIES).length + copied, cached: false };
}

function inputsHash(root) {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".ts")) hash.update(p).update(readFileSync(p));
    }
  };
  walk(join(root, "runtime/src"));
  for (const f of ["package-lock.json", "scripts/declarations.mjs"]) hash.update(f).update(readFileSync(join(root, f)));
  return hash.digest("hex");
}

/** One declaration emit of every library entry: runtime/src-relative path → text. */
function emitRuntimeDeclarations(root) {
  const ts = require("typescript");
  const src = join(root, "runtime/src");
  const entries = Object.values(LIBRARIES).flatMap((e) => Object.values(e)).map((e) => join(src, e));
  const program = ts.createProgram(entries, {
    declaration: true, emitDeclarationOnly: true, outDir: src, rootDir: src, strict: true, skipLibCheck: true,
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"], types: ["node"], esModuleInterop: true,
  });
  const emitted = new Map();
  const result = program.emit(undefined, (file, text) => emitted.set(relative(src, file).split(sep).join("/"), text));
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length || result.emitSkipped) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
    throw new Error(`generating the runtime's declarations failed:\n${ts.formatDiagnostics(problems.slice(0, 20), host)}`);
  }
  return emitted;
}

/** A package folder: the declarations its entries reach (the runtime's layout under dist/) and a manifest. */
function writeLibrary(dir, name, entries, emitted, version) {
  const declarationOf = (entry) => entry.replace(/\.ts$/, ".d.ts");
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !emitted.has(file)) return;
    reached.add(file);
    for (const m of emitted.get(file).matchAll(/(?:\bfrom\s*|\bimport\(\s*)["'](\.[^"']*)["']/g)) {
      const base = posix.normalize(posix.join(posix.dirname(file), m[1]));
      visit(emitted.has(`${base}.d.ts`) ? `${base}.d.ts` : `${base}/index.d.ts`);
    }
  };
  for (const entry of Object.values(entries)) visit(declarationOf(entry));
  for (const file of reached) {
    const dest = join(dir, "dist", file);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, withExplicitExtensions(emitted.get(file), posix.dirname(file), emitted));
  }
  const typesOf = (entry) => `./dist/${declarationOf(entry)}`;
  const exports = { "./package.json": "./package.json" };
  const typesVersions = {};
  for (const [sub, entry] of Object.entries(entries)) {
    exports[sub] = { types: typesOf(entry) };
    if (sub !== ".") typesVersions[sub.slice(2)] = [typesOf(entry)];
  }
  const manifest = {
    name, version: `${version}-agent-lens`, private: true, type: "module",
    description: `Type declarations of the ${name} runtime bundled with Agent Lens (generated from its sources).`,
    types: typesOf(entries["."]), exports, typesVersions: { "*": typesVersions },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Relative specifiers get the `.js` a Node ESM resolution (node16 / nodenext) needs; bundler accepts it too. */
function withExplicitExtensions(text, dir, files) {
  const fix = (spec) => {
    if (!spec.startsWith(".") || /\.(c|m)?js$/.test(spec)) return spec;
    const base = posix.normalize(posix.join(dir, spec));
    if (files.has(`${base}.d.ts`)) return `${spec}.js`;
    if (files.has(`${base}/index.d.ts`)) return `${spec}/index.js`;
    return spec;
  };
  // The Node types back globals such as AbortSignal that the runtime's declarations mention.
  const body = text
    .replace(/(\bfrom\s*["'])([^"']+)(["'])/g, (_, a, s, b) => `${a}${fix(s)}${b}`)
    .replace(/(\bimport\(\s*["'])([^"']+)(["']\s*\))/g, (_, a, s, b) => `${a}${fix(s)}${b}`);
  return /\b(NodeJS|Buffer|AbortSignal)\b/.test(body) && !body.includes('reference types="node"') ? `/// <reference types="node" />\n${body}` : body;
}

/** Copies the declarations (and manifests) of the vendored packages and everything they import. */
function copyVendored(root, out) {
  const seen = new Map(); // package name → its folder in our node_modules
  const queue = VENDORED_ROOTS.map((name) => ({ name, from: root }));
  while (queue.length) {
    const { name, from } = queue.shift();
    if (seen.has(name)) continue;
    const dir = packageDir(name, from);
    // An optional import nobody installed, or a package without declarations: skipLibCheck users never notice.
    if (!dir || !declarationFiles(dir).length) continue;
    seen.set(name, dir);
    for (const file of declarationFiles(dir)) {
      for (const spec of importedPackages(readFileSync(file, "utf8"))) if (!seen.has(spec)) queue.push({ name: spec, from: dir });
    }
    const types = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
    if (!seen.has(types)) queue.push({ name: types, from: dir });
  }
  for (const [name, dir] of seen) {
    const target = join(out, name);
    for (const file of declarationFiles(dir)) {
      const dest = join(target, relative(dir, file));
      mkdirSync(dirname(dest), { recursive: true });
      copyFileSync(file, dest);
    }
    writeFileSync(join(target, "package.json"), `${JSON.stringify(typesManifest(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))), null, 2)}\n`);
  }
  return seen.size;
}

/** The fields of a package.json that module and type resolution read. */
function typesManifest(json) {
  const keep = ["name", "version", "type", "main", "module", "types", "typings", "typesVersions", "exports", "imports"];
  return Object.fromEntries(keep.filter((k) => json[k] !== undefined).map((k) => [k, json[k]]));
}

function packageDir(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function declarationFiles(dir) {
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name === "node_modules") continue;
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (DECLARATION.test(entry.name) && statSync(p).isFile()) files.push(p);
    }
  };
  walk(dir);
  return files;
}

/** Bare package names a declaration file imports or references (comments, hence doc examples, ignored). */
function importedPackages(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/(?!\/ <reference).*$/gm, "$1");
  const names = new Set();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|reference\s+types=)["']([^"'./][^"']*)["']/g)) {
    const spec = m[1];
    if (spec.startsWith("node:") || BUILTINS.has(spec.split("/")[0])) continue;
    const parts = spec.split("/");
    const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    if (m[0].startsWith("reference")) names.add(name.startsWith("@types/") ? name : `@types/${name}`);
    else names.add(name);
  }
  return names;
}
