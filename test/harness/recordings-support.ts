// Helpers of the recordings suites: a scratch project folder, and `agent-lens run` started without blocking
// this process (the vendor test servers they talk to live here).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath } from "./support";

export interface RunOut {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `agent-lens run ...` without blocking this process (the vendor server lives here). */
export function runCliAsync(args: string[], cwd: string, cacheDir: string, env: Record<string, string | undefined> = {}): Promise<RunOut> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath(), "run", ...args], { cwd, env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-recordings-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "recordings-test", type: "module" }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

