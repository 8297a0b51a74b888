// file: URIs (as the language server sends them) ↔ absolute paths, without VS Code types.
import { fileURLToPath, pathToFileURL } from "node:url";

/** A `file://` URI or an absolute path → an absolute path. */
export function toPath(uriOrPath: string): string {
  return /^file:/i.test(uriOrPath) ? fileURLToPath(uriOrPath) : uriOrPath;
}

export function toUri(file: string): string {
  return pathToFileURL(file).href;
}
