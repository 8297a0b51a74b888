// Which files `agent-lens run` runs: explicit files, folders (searched with the test globs) and glob
// patterns, under a root, skipping node_modules, .git and whatever the .gitignore files exclude. The test
// globs are the root's `agentLens.testGlobs` (the settings module reads its .vscode/settings.json), matched
// by the one eval-file matcher the editor uses too (shared/files/eval-files.ts).
import ignore, { type Ignore } from "ignore";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { evalFileMatcher, globMatcher } from "@agent-lens/files/eval-files";
import { testGlobsOf } from "@agent-lens/settings";

/** Every file under dir (absolute paths), skipping node_modules, .git and .gitignored entries. */
function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (folder: string, rules: Array<{ base: string; ig: Ignore }>) => {
    const gitignore = join(folder, ".gitignore");
    const here = existsSync(gitignore) ? [...rules, { base: folder, ig: ignore().add(readFileSync(gitignore, "utf8")) }] : rules;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const full = join(folder, entry.name);
      const isDir = entry.isDirectory();
      const ignored = here.some(({ base, ig }) => {
        const rel = relative(base, full).split(sep).join("/");
        return ig.ignores(isDir ? `${rel}/` : rel);
      });
      if (ignored) continue;
      if (isDir) visit(full, here);
      else if (entry.isFile()) out.push(full);
    }
  };
  visit(dir, []);
  return out;
}

/** Resolves the CLI's file arguments (files, folders, globs) under root into a sorted list of files. A
 *  folder is searched for eval files (the test globs, matched as the editor matches them: relative to
 *  root, shared/files/eval-files.ts); a glob argument matches paths relative to root, or absolute. */
export function discoverFiles(root: string, args: string[], globs = testGlobsOf(root)): string[] {
  const found = new Set<string>();
  let tree: string[] | undefined;
  const all = () => (tree ??= walkFiles(root));
  const isEvalFile = evalFileMatcher(globs, [root]);
  if (!args.length) {
    for (const f of all()) if (isEvalFile(f)) found.add(f);
  }
  for (const arg of args) {
    const abs = isAbsolute(arg) ? arg : resolve(root, arg);
    if (existsSync(abs) && statSync(abs).isFile()) {
      found.add(abs);
    } else if (existsSync(abs) && statSync(abs).isDirectory()) {
      for (const f of walkFiles(abs)) if (isEvalFile(f)) found.add(f);
    } else {
      const m = globMatcher([arg.split(sep).join("/")]);
      for (const f of all()) if (m(relative(root, f).split(sep).join("/")) || m(f.split(sep).join("/"))) found.add(f);
    }
  }
  return [...found].sort();
}

/** --shard i/n: the i-th (1-based) of n interleaved slices of the sorted list. */
export function shardOf<T>(items: T[], index: number, count: number): T[] {
  return items.filter((_, i) => i % count === index - 1);
}
