// The bundle cache: outside the workspace, one per user, that nobody else can write to (what the folder
// must be: cache-trust.ts). Its code runs (the child imports the cached bundle), so a folder another user
// could plant files in would let them run code as the next user of Agent Lens. A bundle's key hashes
// everything its build read (bundle.ts, build-inputs.ts); the bundle's own hash is checked before it runs.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { alive, startTimeOf } from "./process-tree";
import { makePrivateFolder } from "./cache-trust";

function userId(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/** $AGENT_LENS_CACHE_DIR, else $XDG_CACHE_HOME/agent-lens, else the platform's per-user cache folder
 *  (~/.cache, ~/Library/Caches, %LOCALAPPDATA%), else <tmpdir>/agent-lens-<uid>. */
export function defaultCacheDir(): string {
  if (process.env.AGENT_LENS_CACHE_DIR) return resolve(process.env.AGENT_LENS_CACHE_DIR);
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "agent-lens"); // a relative one is invalid (XDG spec)
  let home = "";
  try {
    home = homedir();
  } catch {
    // no home folder (a system account)
  }
  if (home) {
    if (process.platform === "darwin") return join(home, "Library", "Caches", "agent-lens");
    if (process.platform === "win32") return join(process.env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "agent-lens", "Cache");
    return join(home, ".cache", "agent-lens");
  }
  return join(tmpdir(), `agent-lens-${userId() ?? "user"}`);
}

export { makePrivateFolder } from "./cache-trust";

export interface CacheFolder {
  dir: string;
  /** Set when the asked-for folder was refused: why, and where this process builds instead. */
  warning?: string;
}

const checkedFolders = new Map<string, CacheFolder>();
let fallbackFolder: string | undefined;

/** Private temporary folders are named after the process that made them (pid and start time), so one
 *  left behind by a process that was killed (SIGKILL, a closed terminal) can be told from one in use. */
const PRIVATE_PREFIX = "agent-lens-private-";

function privateFolderPrefix(): string {
  return join(tmpdir(), `${PRIVATE_PREFIX}${process.pid}-${startTimeOf(process.pid) ?? "0"}-`);
}

/** Removes the private temporary folders whose process is gone (killed before its exit handler could
 *  remove them); only this user's real folders. Returns what was removed. */
function removeOrphanFolders(dir = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = /^agent-lens-private-(\d+)-(\d+)-/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const start = startTimeOf(pid);
    if (start === undefined ? alive(pid) && m[2] === "0" : start === m[2]) continue; // its owner still runs
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || st.uid !== userId()) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
  return removed;
}

let swept = false;

/** The cache folder to use for `dir`: itself when it is private to this user, else a fresh private
 *  temporary folder for this process (removed at exit; nothing is reused from the refused one). */
export function usableCacheDir(dir: string): CacheFolder {
  const known = checkedFolders.get(dir);
  if (known) return known;
  if (!swept) {
    // Once per process, at its first run: what killed processes left behind.
    swept = true;
    removeOrphanFolders();
  }
  const problem = makePrivateFolder(dir);
  let folder: CacheFolder = { dir };
  if (problem) {
    if (!fallbackFolder) {
      const made = mkdtempSync(privateFolderPrefix());
      fallbackFolder = made;
      process.once("exit", () => rmSync(made, { recursive: true, force: true }));
    }
    folder = {
      dir: fallbackFolder,
      warning: `agent-lens: not using the cache folder ${dir}: ${problem}. Bundles are built in ${fallbackFolder} for now (nothing is reused); remove that folder or set AGENT_LENS_CACHE_DIR to a folder of your own.`,
    };
  }
  checkedFolders.set(dir, folder);
  return folder;
}

/** SHA-256s this process computed, by file and the identity of what it read (inode, size, modification
 *  and change times: any write changes the change time); they serve the intact-file checks and the cache
 *  keys' file hashes. The CLI checks the same library files twice, a few ms apart: for its early child,
 *  then in the cache check. On globalThis because the CLI's two bundles (agent-lens.js, run.js) each carry
 *  their own copy of this module. */
const hashed: Map<string, { identity: string; sha256: string }> = ((globalThis as Record<symbol, unknown>)[Symbol.for("agent-lens.file-sha256")] ??= new Map()) as Map<string, { identity: string; sha256: string }>;

function sha256Of(file: string): string {
  const st = statSync(file, { bigint: true });
  const identity = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  const known = hashed.get(file);
  if (known?.identity === identity) return known.sha256;
  const digest = sha256Hex(readFileSync(file));
  hashed.set(file, { identity, sha256: digest });
  return digest;
}

/** Whether every file still has the SHA-256 recorded when it was written (the check before any of it runs). */
export function filesIntact(files: ReadonlyArray<{ file: string; sha256: string }>): boolean {
  try {
    return files.every((f) => sha256Of(f.file) === f.sha256);
  } catch {
    return false;
  }
}

/** The whole SHA-256 of some bytes, as hex (what a cache entry records of each file it wrote). node:crypto
 *  is required on first use: the CLI starts a file's child before it hashes anything, and the module costs
 *  6–9 ms to load. */
export function sha256Hex(data: string | Buffer): string {
  return (require("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(data).digest("hex");
}

/** A cache key: the first 40 hex digits of the SHA-256. */
export function sha(text: string | Buffer): string {
  return sha256Hex(text).slice(0, 40);
}

/** Content hash of a file (a cache key's part), memoised with the SHA-256s above; "missing" when it is gone. */
export function fileHash(file: string): string {
  try {
    // Installed packages and our own dist/ change only by reinstalling or rebuilding: size and mtime do.
    if (file.includes(`${sep}node_modules${sep}`) || file.includes(`${sep}dist${sep}`)) {
      const st = statSync(file);
      return `${st.size}:${st.mtimeMs}`;
    }
    return sha256Of(file).slice(0, 40);
  } catch {
    return "missing";
  }
}

export function writeAtomic(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
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
