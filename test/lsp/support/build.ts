// The protocol suites run the real built server. Build it when dist/ is missing or older than the
// server's sources (a fresh clone runs `pretest`; this covers `MOCHA_SPEC=... npx mocha` runs). The suites
// then run a private copy of dist/server/server.js (a self-contained bundle), so a build started by
// someone else meanwhile (which empties dist/) cannot pull the file away from under a running test.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO = join(__dirname, "..", "..", "..");
const SERVER_JS = join(REPO, "dist", "server", "server.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

let copy: string | undefined;

/** Path of the server to run: a copy of the freshly checked dist/server/server.js, made once per process. */
export function ensureServerBuilt(): string {
  if (copy && existsSync(copy)) return copy;
  const sources = Math.max(newestMtime(join(REPO, "server", "src")), newestMtime(join(REPO, "shared")));
  const stale = !existsSync(SERVER_JS) || statSync(SERVER_JS).mtimeMs < sources;
  if (stale) execFileSync(process.execPath, [join(REPO, "scripts", "build.mjs")], { cwd: REPO, stdio: "pipe" });
  if (!existsSync(SERVER_JS)) throw new Error(`the build did not produce ${SERVER_JS}`);
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-server-"));
  copy = join(dir, "server.js");
  copyFileSync(SERVER_JS, copy);
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return copy;
}
