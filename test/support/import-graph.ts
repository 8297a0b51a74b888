// The repository's import graph as TypeScript resolves it (tsconfig.json's paths included): every import,
// export-from, `import()` and `require()` of the production sources, type-only ones too. The structure
// test checks the layers on it (cycles: madge, in structure-tools.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

export const ROOT = resolve(__dirname, "../..");

/** The folders of production code (relative to the repository root). */
export const PRODUCTION = ["shared", "server/src", "runtime/src", "client/src", "client/media", "client/tsserver-plugin/src"];

export interface ImportEdge {
  /** The importing file, relative to the root. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The file it resolves to, relative to the root, when it is one of ours. */
  to?: string;
  /** A package from node_modules or a Node builtin. */
  external: boolean;
}

/** The .ts files under `dir` (relative to the root), sorted. */
export function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

let cached: ImportEdge[] | undefined;

/** Every import of every production file. */
export function importEdges(): ImportEdge[] {
  if (cached) return cached;
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
  if (!config) throw new Error("tsconfig.json does not parse");
  const host = ts.createCompilerHost(config.options);
  const builtins = new Set(builtinModules);
  cached = PRODUCTION.flatMap(tsFiles).flatMap((from) => {
    const file = join(ROOT, from);
    return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map(({ fileName: specifier }): ImportEdge => {
      if (specifier.startsWith("node:") || builtins.has(specifier)) return { from, specifier, external: true };
      const resolved = ts.resolveModuleName(specifier, file, config.options, host).resolvedModule;
      if (!resolved) return { from, specifier, external: !specifier.startsWith(".") && !specifier.startsWith("@agent-lens/") };
      if (resolved.isExternalLibraryImport) return { from, specifier, external: true };
      return { from, specifier, to: relative(ROOT, resolved.resolvedFileName), external: false };
    });
  });
  return cached;
}
