// Reading workspace files for the index: size check before reading (huge files are skipped with a log
// line), TypeScript/JavaScript only, and a directory walk that skips what never holds user sources.
import { promises as fsp, readFileSync, statSync, type Dirent } from "node:fs";
import { join, relative, sep } from "node:path";
import ignore from "ignore";
import { isSourcePath } from "./paths";

/** Files larger than this are never read or analyzed. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

const SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", "dist", "out", "build", "coverage", "bower_components", "jspm_packages"]);

export type ReadResult = { text: string } | { skipped: "missing" | "too-large" | "not-source"; size?: number };

export function readSourceFileSync(file: string): ReadResult {
  if (!isSourcePath(file)) return { skipped: "not-source" };
  try {
    const st = statSync(file);
    if (!st.isFile()) return { skipped: "missing" };
    if (st.size > MAX_FILE_BYTES) return { skipped: "too-large", size: st.size };
    return { text: readFileSync(file, "utf8") };
  } catch {
    return { skipped: "missing" };
  }
}

export async function readSourceFile(file: string): Promise<ReadResult> {
  if (!isSourcePath(file)) return { skipped: "not-source" };
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return { skipped: "missing" };
    if (st.size > MAX_FILE_BYTES) return { skipped: "too-large", size: st.size };
    return { text: await fsp.readFile(file, "utf8") };
  } catch {
    return { skipped: "missing" };
  }
}

function loadGitignore(root: string): ((rel: string) => boolean) | undefined {
  try {
    const ig = ignore().add(readFileSync(join(root, ".gitignore"), "utf8"));
    return (rel) => rel !== "" && ig.ignores(rel);
  } catch {
    return undefined;
  }
}

/** Every TypeScript/JavaScript source under `root` (no node_modules, build output, dot folders or .gitignored paths). */
export async function listSourceFiles(root: string, shouldStop: () => boolean): Promise<string[]> {
  const ignored = loadGitignore(root);
  const out: string[] = [];
  const pending = [root];
  while (pending.length) {
    if (shouldStop()) return out;
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const rel = relative(root, full).split(sep).join("/");
      if (entry.isDirectory()) {
        if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
        if (ignored?.(rel + "/")) continue;
        pending.push(full);
      } else if (entry.isFile() && isSourcePath(full)) {
        if (ignored?.(rel)) continue;
        out.push(full);
      }
    }
  }
  return out.sort();
}
