// URIs ↔ absolute paths. Open documents keep the exact URI string the client sent (clients encode file
// URIs in their own way), files from disk get `pathToFileURL`. Untitled documents get a synthetic path
// so the analysis (which speaks paths) can hold them.
import { extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const UNTITLED_ROOT = "/__agent-lens-untitled__";

/** Extensions the server analyzes (TypeScript and JavaScript, with their module and JSX variants). */
const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"]);
export const SOURCE_LANGUAGES: ReadonlySet<string> = new Set(["typescript", "javascript", "typescriptreact", "javascriptreact"]);
export const SOURCE_GLOB = "**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}";

const LANGUAGE_EXTENSION: Record<string, string> = { typescript: ".ts", javascript: ".js", typescriptreact: ".tsx", javascriptreact: ".jsx" };

export function isSourcePath(file: string): boolean {
  return SOURCE_EXTENSIONS.has(extname(file).toLowerCase()) && !file.endsWith(".d.ts");
}

export class UriMap {
  private readonly fileToUri = new Map<string, string>();

  /** The path for a URI, or undefined for schemes the server does not analyze. */
  toFile(uri: unknown, languageId?: string): string | undefined {
    if (typeof uri !== "string") return undefined;
    try {
      if (uri.startsWith("file:")) return fileURLToPath(uri);
      if (uri.startsWith("untitled:")) {
        const name = encodeURIComponent(uri.slice("untitled:".length)).replace(/%/g, "_");
        const ext = (languageId && LANGUAGE_EXTENSION[languageId]) ?? ".ts";
        return join(UNTITLED_ROOT, name.endsWith(ext) ? name : name + ext);
      }
    } catch {
      return undefined;
    }
    return undefined;
  }

  /** Remember the client's spelling of an open document's URI. */
  remember(uri: string, file: string): void {
    this.fileToUri.set(file, uri);
  }

  forget(file: string): void {
    this.fileToUri.delete(file);
  }

  toUri(file: string): string {
    return this.fileToUri.get(file) ?? pathToFileURL(file).href;
  }
}
