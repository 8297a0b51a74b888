// Runs the built CLI (dist/cli/agent-lens.js) of this checkout as a child process, from the private copy
// of dist/ the harness suites use (test/harness/support.ts): a concurrent `npm run build` cannot pull it
// away mid-suite, and the CLI finds its harness, runtime and vendored libraries in that copy
// (AGENT_LENS_DIST) — never in another checkout's dist/ (a copy under a shared node_modules walked up to
// the checkout that owns node_modules).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cliPath, root } from "../harness/support";

export const REPO = root;

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd = REPO, env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [cliPath(), ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "", ...env }, timeout: 60_000 });
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
