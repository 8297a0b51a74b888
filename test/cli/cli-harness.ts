// Runs the built CLI (dist/cli/agent-lens.js) as a child process. dist/cli is copied aside first so a
// concurrent `npm run build` (which empties dist/) cannot pull it away mid-suite.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const REPO = path.resolve(__dirname, "../..");
const BUILT = path.join(REPO, "dist/cli/agent-lens.js");
const COPY_DIR = path.join(REPO, "node_modules/.cache/agent-lens-cli-test");
let cli: string | undefined;

export function builtCli(): string {
  if (cli) return cli;
  for (let attempt = 0; attempt < 3 && !fs.existsSync(BUILT); attempt++) {
    execFileSync(process.execPath, [path.join(REPO, "scripts/build.mjs")], { cwd: REPO, stdio: "ignore" });
  }
  const dir = path.join(COPY_DIR, String(process.pid));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.dirname(BUILT), dir, { recursive: true });
  cli = path.join(dir, path.basename(BUILT));
  return cli;
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd = REPO, env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [builtCli(), ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "", ...env }, timeout: 60_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A temporary project folder holding `files` (paths relative to it). */
export function tempProject(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-lens-check-"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

export function cleanupCli(): void {
  if (cli) fs.rmSync(path.dirname(cli), { recursive: true, force: true });
  cli = undefined;
}
