// Which files are eval files: `agentLens.testGlobs` matched against a file's path relative to the
// workspace folder that holds it. One matcher for the Testing view and the catalog (the language server),
// the analysis (an eval file is analyzed even without a library word) and `agent-lens run`'s discovery.
// Dot folders and files match like any other (`.agents/triage.test.ts` is an eval file), as in VS Code's,
// vitest's and jest's globs; what .gitignore excludes, `agent-lens run` skips while walking.
import { basename, isAbsolute, relative, sep } from "node:path";
import type { Matcher } from "picomatch";

/** The options every glob of ours is compiled with (the test globs and `agent-lens run`'s glob arguments). */
const OPTIONS = { dot: true } as const;

/** A matcher of slash-separated relative paths. picomatch is loaded on first use: `agent-lens run FILE`
 *  never matches a glob, and loading it costs a few ms. */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  let match: Matcher | undefined;
  return (path) => {
    if (!globs.length) return false;
    match ??= (require("picomatch") as typeof import("picomatch"))([...globs], OPTIONS);
    return match(path);
  };
}

/** Whether an absolute file is an eval file: its path relative to any of `roots` that holds it matches one
 *  of `globs`; a file no root holds is matched by its name. */
export function evalFileMatcher(globs: readonly string[], roots: readonly string[]): (file: string) => boolean {
  const match = globMatcher(globs);
  return (file) => {
    const inside = roots.map((root) => relative(root, file)).filter((rel) => rel && !rel.startsWith("..") && !isAbsolute(rel));
    const candidates = inside.length ? inside.map((rel) => rel.split(sep).join("/")) : [basename(file)];
    return candidates.some(match);
  };
}
