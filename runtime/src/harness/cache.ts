// The bundle cache: outside the workspace ($AGENT_LENS_CACHE_DIR, else $XDG_CACHE_HOME/agent-lens, else
// <tmpdir>/agent-lens-cache). A bundle's key hashes the entry, the content of every input esbuild read,
// the tsconfig / package.json files that steer the transform, the runtime choices and our version.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";

export function defaultCacheDir(): string {
  if (process.env.AGENT_LENS_CACHE_DIR) return process.env.AGENT_LENS_CACHE_DIR;
  if (process.env.XDG_CACHE_HOME) return join(process.env.XDG_CACHE_HOME, "agent-lens");
  return join(tmpdir(), "agent-lens-cache");
}

export function sha(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 40);
}

const contentHashes = new Map<string, { mtimeMs: number; size: number; hash: string }>();

/** Content hash of a file, memoised on (mtime, size) within this process; "missing" when it is gone. */
export function fileHash(file: string): string {
  try {
    const st = statSync(file);
    // Installed packages and our own dist/ change only by reinstalling or rebuilding: size and mtime do.
    if (file.includes(`${sep}node_modules${sep}`) || file.includes(`${sep}dist${sep}`)) return `${st.size}:${st.mtimeMs}`;
    const known = contentHashes.get(file);
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.hash;
    const hash = sha(readFileSync(file));
    contentHashes.set(file, { mtimeMs: st.mtimeMs, size: st.size, hash });
    return hash;
  } catch {
    return "missing";
  }
}

/** tsconfig.json / jsconfig.json / package.json files from the entry's folder up to the filesystem root. */
export function configFilesAbove(dir: string): string[] {
  const out: string[] = [];
  for (;;) {
    for (const name of ["tsconfig.json", "jsconfig.json", "package.json"]) {
      const f = join(dir, name);
      if (existsSync(f)) out.push(f);
    }
    const up = dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

export function writeAtomic(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
