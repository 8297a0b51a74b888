// The protocol suites run the real built server. Build it when dist/ is missing or older than the
// server's sources (a fresh clone runs `pretest`; this covers `MOCHA_SPEC=... npx mocha` runs).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const REPO = join(__dirname, "..", "..", "..");
export const SERVER_JS = join(REPO, "dist", "server", "server.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureServerBuilt(): string {
  const stale = !existsSync(SERVER_JS) || statSync(SERVER_JS).mtimeMs < newestMtime(join(REPO, "server", "src"));
  if (stale) execFileSync(process.execPath, [join(REPO, "scripts", "build.mjs")], { cwd: REPO, stdio: "pipe" });
  if (!existsSync(SERVER_JS)) throw new Error(`the build did not produce ${SERVER_JS}`);
  return SERVER_JS;
}
