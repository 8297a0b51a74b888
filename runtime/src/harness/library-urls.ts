// Where the library layer (libraries.ts) lives in the cache, and the URLs a user's bundle imports it by.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sha } from "./cache";

const PLACEHOLDER_KEY = "0".repeat(40);

export function librariesFolder(cacheDir: string): string {
  return join(cacheDir, "libraries");
}

/** The file name (without .mjs) of a specifier's entry in a layer. */
export function entryName(spec: string): string {
  return `${spec.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${sha(spec).slice(0, 8)}`;
}

/** The URL the user's bundle imports `spec` from, in the layer `key`. Every key has the same length, so the
 *  bundle is built against a placeholder key and the real one written in without moving a column. */
export function libraryUrl(cacheDir: string, spec: string, key = PLACEHOLDER_KEY): string {
  return pathToFileURL(join(librariesFolder(cacheDir), key, `${entryName(spec)}.mjs`)).href;
}

export function withLibraryKey(code: string, cacheDir: string, specs: Iterable<string>, key: string): string {
  let out = code;
  for (const spec of specs) out = out.split(libraryUrl(cacheDir, spec)).join(libraryUrl(cacheDir, spec, key));
  return out;
}

/** The names `code` (esbuild's output) imports, or re-exports, by name from `url`: what the library entry
 *  must export. Namespace imports and `export *` name nothing. */
export function namesImportedFrom(code: string, url: string): Set<string> {
  const names = new Set<string>();
  const quoted = JSON.stringify(url).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const add = (list: string | undefined) => {
    for (const part of list?.split(",") ?? []) {
      const name = part.trim().split(/\s+as\s+/)[0]!.trim().replace(/^["']|["']$/g, "");
      if (name) names.add(name);
    }
  };
  for (const m of code.matchAll(new RegExp(`^import\\s+([\\w$]+)?\\s*,?\\s*(?:\\{([^}]*)\\}|\\*\\s*as\\s+[\\w$]+)?\\s*from\\s*${quoted}`, "gm"))) {
    if (m[1]) names.add("default");
    add(m[2]);
  }
  for (const m of code.matchAll(new RegExp(`^export\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, "gm"))) add(m[1]);
  return names;
}
