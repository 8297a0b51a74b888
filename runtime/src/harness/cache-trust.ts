// What a cache folder must be before anything in it runs. The child imports the bundles, library layers and
// (Node ≥ 22) compiled code kept there, so a folder another user could write to, or replace, would let them
// run code as the next user of Agent Lens. Every folder on the path to such a file is checked:
// - the cache folder and every folder in it on the way to a file that runs (bundles/, libraries/ and each
//   layer in it, v8/ and Node's folders in it, pipes/, manifests/, coverage/) must be a real folder (not a
//   link, not a file) of this user; one of this user's that others could write to is taken private and
//   emptied (anything in it may have been planted);
// - the folders above it (its real path) must belong to this user or to root, and not be writable by others
//   unless they have the sticky bit (/tmp: others cannot rename or remove what is not theirs) or are
//   writable only by the user's own primary group (a user-private group); a link on the way must be this
//   user's or root's.
// Anything else refuses the whole folder, with the reason (the caller builds in a private temporary
// folder instead). Checked once per process and folder (cache.ts): once the folder is private, only this
// user (or root) can change what is in it.
import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The folders the harness keeps inside the cache folder. */
const CACHE_SUBFOLDERS = ["bundles", "manifests", "libraries", "v8", "pipes", "coverage"] as const;
/** Of those, the ones whose own subfolders hold files that run (each is checked too). */
const NESTED = new Set(["libraries", "v8"]);

function userId(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

const octal = (mode: number) => (mode & 0o7777).toString(8);

/** Creates `dir` (mode 0700) or checks the one there, with everything on the way to the files that run from
 *  it (above). Returns why it cannot be used, if it cannot. A few dozen system calls (the caller,
 *  cache.ts's usableCacheDir, asks once per folder). */
export function makePrivateFolder(folder: string): string | undefined {
  const dir = resolve(folder);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `it cannot be created (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  const uid = userId();
  if (uid === undefined) return undefined; // Windows: %LOCALAPPDATA% is the user's own (ACLs), no uid to compare
  try {
    const link = lstatSync(dir);
    if (link.isSymbolicLink() && link.uid !== uid) return `it is a symbolic link that belongs to another user (uid ${link.uid}; you are ${uid})`;
    const st = statSync(dir);
    if (!st.isDirectory()) return "it is not a folder";
    if (st.uid !== uid) return `it belongs to another user (uid ${st.uid}; you are ${uid})`;
    const above = problemAbove(dir, uid);
    if (above) return above;
    if (st.mode & 0o077) chmodSync(dir, 0o700);
    // Writable by others until now: anything in it may have been planted (a link is removed, not followed).
    if (st.mode & 0o022) for (const sub of CACHE_SUBFOLDERS) rmSync(join(dir, sub), { recursive: true, force: true });
    for (const sub of CACHE_SUBFOLDERS) {
      const problem = problemInside(join(dir, sub), uid, NESTED.has(sub));
      if (problem) return problem;
    }
  } catch (error) {
    return `it cannot be checked (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  return undefined;
}

/** A folder above the cache folder that someone else could use to replace it. */
function problemAbove(dir: string, uid: number): string | undefined {
  // The links on the path as given: each one's owner could point it elsewhere.
  for (let at = dirname(dir); ; at = dirname(at)) {
    const st = lstatSync(at);
    if (st.isSymbolicLink() && st.uid !== uid && st.uid !== 0) return `${at}, a link on the way to it, belongs to another user (uid ${st.uid}; you are ${uid})`;
    if (dirname(at) === at) break;
  }
  // The folders it really is in.
  const real = realpathSync(dir);
  for (let at = dirname(real); ; at = dirname(at)) {
    const st = statSync(at);
    if (st.uid !== uid && st.uid !== 0) return `${at}, a folder above it, belongs to another user (uid ${st.uid}; you are ${uid}), who could replace it`;
    if (othersMayReplace(st)) return `${at}, a folder above it, can be written by others (mode ${octal(st.mode)}, no sticky bit), who could replace it`;
    if (dirname(at) === at) break;
  }
  return undefined;
}

function othersMayReplace(st: Stats): boolean {
  if (st.mode & 0o1000) return false; // sticky: only an entry's owner may rename or remove it
  if (st.mode & 0o002) return true;
  return (st.mode & 0o020) !== 0 && st.gid !== process.getgid?.();
}

/** A folder of the cache that files run from: missing (made later, by this user), or a real folder of this
 *  user's; emptied when others could write to it. With `nested`, its own subfolders likewise. */
function problemInside(folder: string, uid: number, nested: boolean): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(folder);
  } catch {
    return undefined; // not there: the harness makes it, private
  }
  if (st.isSymbolicLink()) return `${folder} is a symbolic link (remove it; the harness makes its own folder)`;
  if (!st.isDirectory()) return `${folder} is not a folder (remove it; the harness makes its own folder)`;
  if (st.uid !== uid) return `${folder} belongs to another user (uid ${st.uid}; you are ${uid})`;
  if (st.mode & 0o022) {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
  if (!nested) return undefined;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isFile()) continue;
    const problem = problemInside(join(folder, entry.name), uid, false);
    if (problem) return problem;
  }
  return undefined;
}
