// Children die with their parent: when `agent-lens run` (or a process running files through the API, as VS
// Code's extension host does) is killed by SIGKILL or hung up on (SIGHUP), the file's process, its group and
// what it started in its own session stop — even while the file keeps its event loop busy. And a private
// temporary folder a killed run left behind is removed at the next start.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliPath, fixtures, psSurvivors, root, suiteCache, tempDir } from "./support";

const dir = join(fixtures, "orphans");
const FILE = join(dir, "busy-with-children.test.ts");
const NEEDLES = ["sleep 9874", "sleep 9875"];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the parent's output says the file started its processes; returns the file's child pid. */
function started(parent: ChildProcess, childPidOf: (line: string) => number | undefined): Promise<number> {
  return new Promise((done, fail) => {
    let text = "";
    let pid: number | undefined;
    const timer = setTimeout(() => fail(new Error(`the file did not start in time:\n${text}`)), 30_000);
    parent.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      for (const line of text.split("\n")) pid ??= childPidOf(line);
      if (pid && text.includes("started")) {
        clearTimeout(timer);
        done(pid);
      }
    });
    parent.once("exit", () => fail(new Error(`the parent exited first:\n${text}`)));
  });
}

/** Polls until nothing of the run is left (at most 10 s); returns what is still there. */
async function leftAfter(childPid: number): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 100; i++) {
    left = [...psSurvivors(childPid, NEEDLES), ...(alive(childPid) ? [`the file's process ${childPid}`] : [])];
    if (!left.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return left;
}

const fromJson = (line: string) => {
  try {
    const e = JSON.parse(line) as { type?: string; pid?: number };
    return e.type === "start" ? e.pid : undefined;
  } catch {
    return undefined;
  }
};

describe("harness: children die with their parent", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  // When a case fails, what it left must not outlive the suite (only this test process's own processes).
  afterEach(() => {
    for (const line of psSurvivors(undefined, NEEDLES)) {
      try {
        process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
      } catch {
        // gone
      }
    }
  });

  for (const signal of ["SIGKILL", "SIGHUP"] as const) {
    it(`agent-lens run killed by ${signal}: the busy file, its process group and its setsid child stop (were left running with no time limit)`, async () => {
      const cli = spawn(process.execPath, [cliPath(), "run", "--json", "--timeout", "600", FILE], {
        cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir(), NO_COLOR: "1" },
      });
      const childPid = await started(cli, fromJson);
      assert.deepEqual(psSurvivors(childPid, NEEDLES).length >= 3, true, "the file and both its processes run");
      const exited = new Promise<number | null>((r) => cli.once("exit", (code) => r(code)));
      cli.kill(signal);
      assert.deepEqual(await leftAfter(childPid), [], "nothing of the run is left");
      const code = await exited;
      if (signal === "SIGHUP") assert.equal(code, 1, "the CLI cancelled its run and said so");
    });
  }

  it("a process running files through the API (VS Code's extension host) killed by SIGKILL: the same", async () => {
    const script = `
      const { runEvalFile } = require(${JSON.stringify(join(root, "runtime/src/harness/index.ts"))});
      runEvalFile({ file: ${JSON.stringify(FILE)}, cacheDir: ${JSON.stringify(cacheDir())}, timeoutMs: 600000, onEvent: (e) => {
        if (e.type === "start") console.log("pid " + e.pid);
        if (e.type === "console") console.log(e.text);
      } });
    `;
    const host = spawn(process.execPath, ["--import", "tsx", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_OPTIONS: "" } });
    const childPid = await started(host, (line) => (/^pid (\d+)$/.exec(line) ? Number(/^pid (\d+)$/.exec(line)![1]) : undefined));
    host.kill("SIGKILL");
    assert.deepEqual(await leftAfter(childPid), [], "nothing of the run is left");
  });

  it("a private temporary folder left by a killed run is removed at the next start; one in use is kept", async () => {
    // A cache folder that cannot be used (a file): the run builds in a private temporary folder instead.
    const notAFolder = join(tempDir("not-a-folder"), "cache");
    writeFileSync(notAFolder, "");
    // A temporary folder of its own (TMPDIR): other processes on this machine sweep the shared one too.
    const temp = tempDir("tmpdir");
    const privateFolders = () => readdirSync(temp).filter((n) => n.startsWith("agent-lens-private-"));
    const cli = spawn(process.execPath, [cliPath(), "run", "--json", "--timeout", "600", FILE], {
      cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, AGENT_LENS_CACHE_DIR: notAFolder, TMPDIR: temp, NO_COLOR: "1" },
    });
    const childPid = await started(cli, fromJson);
    const made = privateFolders();
    assert.equal(made.length, 1, `one private folder for the run: ${made.join(", ")}`);
    assert.match(made[0]!, new RegExp(`^agent-lens-private-${cli.pid}-\\d+-`), "named after the process that made it");
    // A folder of a process that still runs (this one) is not touched by the next start.
    const startTime = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[19];
    const mine = join(temp, `agent-lens-private-${process.pid}-${startTime}-inuse`);
    mkdirSync(mine);
    cli.kill("SIGKILL");
    assert.deepEqual(await leftAfter(childPid), []);
    assert.ok(existsSync(join(temp, made[0]!)), "the killed run could not remove it");
    const next = spawnSync(process.execPath, [cliPath(), "run", "../basic/passes.test.ts"], { cwd: dir, encoding: "utf8", env: { ...process.env, AGENT_LENS_CACHE_DIR: cacheDir(), TMPDIR: temp, NO_COLOR: "1" } });
    assert.equal(next.status, 0, next.stdout + next.stderr);
    assert.ok(!existsSync(join(temp, made[0]!)), "the next start removed it");
    assert.ok(existsSync(mine), "a folder whose process runs is kept");
    rmSync(temp, { recursive: true, force: true });
  });
});
