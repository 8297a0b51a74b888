// The files `agent-lens check` looks at: the given files, and every TypeScript/JavaScript file under the
// given folders, skipping node_modules, .git and whatever .gitignore files (at the folder, its parents up
// to the working directory, and below) exclude.
import ignore, { type Ignore } from "ignore";
import * as fs from "node:fs";
import * as path from "node:path";

const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

interface Rules {
  dir: string;
  ig: Ignore;
}

export class PathError extends Error {}

export function collectFiles(cwd: string, inputs: string[]): string[] {
  const out = new Set<string>();
  for (const input of inputs.length ? inputs : ["."]) {
    const abs = path.resolve(cwd, input);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new PathError(`no such file or folder: ${input}`);
    }
    if (stat.isFile()) {
      out.add(abs);
      continue;
    }
    if (!stat.isDirectory()) continue;
    walk(abs, ancestorRules(cwd, abs), out);
  }
  return [...out].sort();
}

function isSource(file: string): boolean {
  return SOURCE.test(file) && !file.endsWith(".d.ts");
}

function loadRules(dir: string): Rules | undefined {
  try {
    const text = fs.readFileSync(path.join(dir, ".gitignore"), "utf8");
    return { dir, ig: ignore().add(text) };
  } catch {
    return undefined;
  }
}

/** .gitignore rules of the folders from the working directory (or the filesystem root when the target is
 *  outside it) down to the target's parent. */
function ancestorRules(cwd: string, target: string): Rules[] {
  const rel = path.relative(cwd, target);
  const inside = !rel.startsWith("..") && !path.isAbsolute(rel);
  const start = inside ? cwd : path.parse(target).root;
  const dirs: string[] = [];
  for (let d = path.dirname(target); ; d = path.dirname(d)) {
    if (d.length < start.length) break;
    dirs.unshift(d);
    if (d === start || d === path.dirname(d)) break;
  }
  return dirs.map(loadRules).filter((r): r is Rules => !!r);
}

function ignored(rules: Rules[], abs: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = path.relative(r.dir, abs).split(path.sep).join("/");
    if (!rel || rel.startsWith("..")) continue;
    if (r.ig.ignores(isDir ? rel + "/" : rel)) return true;
  }
  return false;
}

function walk(dir: string, rules: Rules[], out: Set<string>): void {
  const own = loadRules(dir);
  const active = own ? [...rules, own] : rules;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (SKIP_DIRS.has(e.name) || ignored(active, abs, true)) continue;
      walk(abs, active, out);
    } else if (e.isFile() && isSource(e.name) && !ignored(active, abs, false)) {
      out.add(abs);
    }
  }
}
