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
