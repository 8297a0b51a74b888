// agent-lens run --watch re-runs the eval files whose own sources changed, and stops cleanly.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliPath, ensureBuilt, tempDir } from "./support";

function waitFor(read: () => string, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (pattern.test(read())) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${pattern}; output so far:\n${read()}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

describe("harness: agent-lens run --watch", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  before(() => ensureBuilt());
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("re-runs a file when a module it imports changes, leaves the others alone, and exits on SIGINT", async () => {
    const ws = tempDir("watch");
    const cache = tempDir("cache");
    dirs.push(ws, cache);
    writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "watch-ws", private: true, type: "module" }));
    writeFileSync(join(ws, "value.ts"), "export const value: number = 1;\n");
    writeFileSync(join(ws, "uses-value.test.ts"), `import assert from "node:assert/strict";\nimport { value } from "./value";\nassert.equal(value, 1);\n`);
    writeFileSync(join(ws, "other.test.ts"), `console.log("other ran");\n`);
    const child = spawn(process.execPath, [cliPath(), "run", "--watch"], { cwd: ws, env: { ...process.env, AGENT_LENS_CACHE_DIR: cache, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await waitFor(() => out, /watching for changes/, 60_000);
      assert.match(out, /2 passed, 0 failed/);
      const before = out.length;
      writeFileSync(join(ws, "value.ts"), "export const value: number = 2;\n");
      await waitFor(() => out.slice(before), /0 passed, 1 failed/, 60_000);
      const rerun = out.slice(before);
      assert.match(rerun, /re-running uses-value\.test\.ts\n/);
      assert.doesNotMatch(rerun, /other\.test\.ts/);
      assert.match(rerun, /at uses-value\.test\.ts:3:8/);
    } finally {
      child.kill("SIGINT");
    }
    assert.equal(await exited, 0);
  });

  it("SIGINT during a re-run of two files: the running one is cancelled and the queued one never starts", async () => {
    const ws = tempDir("watch-stop");
    const cache = tempDir("cache");
    dirs.push(ws, cache);
    writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "watch-stop-ws", private: true, type: "module" }));
    writeFileSync(join(ws, "value.ts"), "export const value: number = 1;\n");
    // waits (far longer than the test) once the flag file exists, saying so first
    writeFileSync(join(ws, "a-slow.test.ts"), `import { existsSync, writeFileSync } from "node:fs";\nimport { value } from "./value";\nif (existsSync(new URL("./slow", import.meta.url))) {\n  writeFileSync(new URL("./a-started", import.meta.url), "");\n  await new Promise((r) => setTimeout(r, 60_000));\n}\nconsole.log(value);\n`);
    // counts its runs
    writeFileSync(join(ws, "b-next.test.ts"), `import { appendFileSync } from "node:fs";\nimport { value } from "./value";\nappendFileSync(new URL("./b-runs", import.meta.url), "x");\nconsole.log(value);\n`);
    const child = spawn(process.execPath, [cliPath(), "run", "--watch", "--jobs", "1", "a-slow.test.ts", "b-next.test.ts"], { cwd: ws, env: { ...process.env, AGENT_LENS_CACHE_DIR: cache, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await waitFor(() => out, /watching for changes/, 60_000);
      assert.equal(readFileSync(join(ws, "b-runs"), "utf8"), "x");
      writeFileSync(join(ws, "slow"), "");
      writeFileSync(join(ws, "value.ts"), "export const value: number = 2;\n");
      await waitFor(() => (existsSync(join(ws, "a-started")) ? "started" : ""), /started/, 60_000);
    } finally {
      child.kill("SIGINT");
    }
    assert.equal(await exited, 0, out);
    assert.match(out, /re-running a-slow\.test\.ts, b-next\.test\.ts\n/);
    assert.match(out, /CANCELLED {2}b-next\.test\.ts/, out);
    assert.equal(readFileSync(join(ws, "b-runs"), "utf8"), "x", "b-next.test.ts ran once, before the re-run");
  });
});
