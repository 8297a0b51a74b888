// The child started before the bundle is checked (the CLI's early child): it preloads the libraries of the
// file's last build, only when their files still have their hashes, and a run uses it only when the bundle
// imports every library it preloaded; otherwise it is ended and the file starts cold, with the same result.
// Also the result channel's token: 32 hex digits, new for every child. Real runs, real processes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harnessAssets } from "../../runtime/src/harness/assets";
import { bundleEvalFile } from "../../runtime/src/harness/bundle";
import { HELLO_PREFIX, TOKEN_HEX_LENGTH } from "../../runtime/src/harness/channel-protocol";
import { startEarlyChild, type EarlyRequest } from "../../runtime/src/harness/early-child";
import { DEFAULT_HEAP_MB } from "../../shared/protocol/limits";
import { startEarlyForArgs } from "../../server/src/cli/run-early";
import { HarnessChild } from "../../runtime/src/harness/child-process";
import { ensureBuilt, psSurvivors, root, runCli, runCollect, suiteCache, tempDir } from "./support";

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Folders the tests made, removed when they are done. */
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A workspace of its own (no node_modules: zod and xstate resolve to the copies Agent Lens ships). */
function workspaceWith(source: string): { workspace: string; file: string } {
  const workspace = tempDir("early-ws");
  made.push(workspace);
  writeFileSync(join(workspace, "package.json"), JSON.stringify({ name: "early-ws", private: true, type: "module" }));
  mkdirSync(join(workspace, "evals"));
  const file = join(workspace, "evals/check.eval.ts");
  writeFileSync(file, source);
  return { workspace, file };
}

const ZOD_FILE = `import { z } from "zod";\nconsole.log(z.string().parse("zod ran"));\n`;
const XSTATE_FILE = `import { createActor, createMachine } from "xstate";\nconst actor = createActor(createMachine({ initial: "a", states: { a: {} } })).start();\nconsole.log("xstate ran", actor.getSnapshot().value);\n`;

describe("harness: the early child", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  const request = (workspace: string, file: string): EarlyRequest => ({
    file, workspace, env: { ...process.env }, heapMb: DEFAULT_HEAP_MB, mode: "auto", cacheDir: cacheDir(), assets: harnessAssets(),
  });

  it("preloads the libraries of the file's last build, and the next run takes it", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    const first = await runCollect({ file, workspace, cacheDir: cacheDir(), startEarly: true });
    assert.equal(first.result.status, "passed");
    const built = await bundleEvalFile({ entry: file, workspace, cacheDir: cacheDir() });
    assert.ok(built.ok && built.cached && built.meta.libs?.entries.length, "the bundle imports zod from the library layer");

    const child = startEarlyChild(request(workspace, file));
    assert.deepEqual([...child.preload], built.meta.libs!.entries);
    await child.ready; // it loaded them, and waits for its file
    const run = await runCollect({ file, workspace, cacheDir: cacheDir(), earlyChild: child });
    assert.equal(run.result.status, "passed");
    assert.equal(run.result.process?.early, true, `the early child ran it (${run.result.process?.note ?? ""})`);
    assert.ok(run.events.some((e) => e.type === "console" && e.text.includes("zod ran")));
  });

  it("is started for node:test when the last build says so, though only a helper module imports node:test", async () => {
    const { workspace, file } = workspaceWith(`import { check } from "./helper";\ncheck("from the helper", () => {});\n`);
    writeFileSync(join(workspace, "evals/helper.ts"), `import { test } from "node:test";\nexport const check = test;\n`);
    const first = await runCollect({ file, workspace, cacheDir: cacheDir() });
    assert.equal(first.result.status, "passed");
    assert.deepEqual(first.result.tests.map((t) => t.test), ["from the helper"]);

    const child = startEarlyChild(request(workspace, file));
    assert.equal(child.spec.nodeTest, true, "the child the entry's text suggested was replaced by one for node:test");
    const run = await runCollect({ file, workspace, cacheDir: cacheDir(), earlyChild: child });
    assert.equal(run.result.status, "passed");
    assert.equal(run.result.process?.early, true, `the early child ran it (${run.result.process?.note ?? ""})`);
  });

  it("is ended when the file no longer imports a library it preloaded; the file runs cold and passes", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    assert.equal((await runCollect({ file, workspace, cacheDir: cacheDir() })).result.status, "passed");
    writeFileSync(file, XSTATE_FILE); // the file's libraries changed since its last build

    const child = startEarlyChild(request(workspace, file));
    assert.equal(child.preload.length, 1, "the guess came from the last build (zod)");
    const run = await runCollect({ file, workspace, cacheDir: cacheDir(), earlyChild: child });
    assert.equal(run.result.status, "passed");
    assert.equal(run.result.process?.early, undefined);
    assert.match(run.result.process?.note ?? "", /^the early child preloaded a library the file does not import \(.*zod.*\)$/);
    assert.ok(run.events.some((e) => e.type === "console" && e.text.includes("xstate ran")));
    await child.exited;
    assert.equal(alive(child.pid), false, "the early child is gone");
  });

  it("preloads nothing when a library file no longer has its hash", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    assert.equal((await runCollect({ file, workspace, cacheDir: cacheDir() })).result.status, "passed");
    const built = await bundleEvalFile({ entry: file, workspace, cacheDir: cacheDir() });
    assert.ok(built.ok && built.meta.libs);
    appendFileSync(built.meta.libs.files[0]!.file, "\n// changed on disk\n");

    const child = startEarlyChild(request(workspace, file));
    assert.deepEqual([...child.preload], [], "a changed library file is never loaded");
    const run = await runCollect({ file, workspace, cacheDir: cacheDir(), earlyChild: child });
    assert.equal(run.result.status, "passed", "the layer is rebuilt and the file runs");
    assert.equal(run.result.process?.early, true, "an early child that preloaded nothing fits any file of its spec");
  });

  it("is ended, not leaked, when the run fails before any process would start", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    const child = startEarlyChild(request(workspace, file));
    const run = await runCollect({ file, workspace, cacheDir: cacheDir(), earlyChild: child, timeoutMs: 0 });
    assert.equal(run.result.status, "failed");
    assert.equal(run.result.tests[0]?.failure?.code, "invalid-option");
    await child.exited;
    assert.equal(alive(child.pid), false);
  });

  it("is ended when the run cannot use its cache folder (a file where bundles/ should be): the run builds elsewhere and passes", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    const cache = tempDir("unusable-cache");
    made.push(cache);
    writeFileSync(join(cache, "bundles"), "a file where the bundles folder should be\n");
    const child = startEarlyChild({ ...request(workspace, file), cacheDir: cache });
    const run = await runCollect({ file, workspace, cacheDir: cache, earlyChild: child });
    assert.equal(run.result.status, "passed");
    assert.equal(run.result.process?.early, undefined);
    assert.equal(run.result.process?.note, "the early child uses another cache folder");
    await child.exited;
    assert.equal(alive(child.pid), false, "no child outlives the run");
  });
});

describe("agent-lens run FILE: the child started before the harness loads", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  const harnessChildren = () => psSurvivors(undefined, [join(ensureBuilt(), "harness/child.js")]);

  it("runs the file (twice: built, then cached with its libraries preloaded)", () => {
    const { workspace } = workspaceWith(ZOD_FILE);
    for (const round of ["built", "cached"]) {
      const r = runCli(["evals/check.eval.ts"], workspace, cacheDir());
      assert.equal(r.status, 0, `${round}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /1 passed, 0 failed/);
    }
    assert.deepEqual(harnessChildren(), []);
  });

  it("guesses from the last build in the runtime mode the run will use (--runtime, else the settings file)", async () => {
    const { workspace, file } = workspaceWith(ZOD_FILE);
    assert.equal((await runCollect({ file, workspace, cacheDir: cacheDir(), runtime: "bundled" })).result.status, "passed");
    const built = await bundleEvalFile({ entry: file, workspace, cacheDir: cacheDir(), mode: "bundled" });
    assert.ok(built.ok && built.meta.libs?.entries.length);
    const saved = process.env.AGENT_LENS_CACHE_DIR;
    process.env.AGENT_LENS_CACHE_DIR = cacheDir();
    const started: HarnessChild[] = [];
    const preloadOf = (argv: string[]) => {
      const child = startEarlyForArgs(argv, workspace)?.take(file);
      assert.ok(child, `a child was started for ${argv.join(" ")}`);
      started.push(child);
      return [...child.preload];
    };
    try {
      assert.deepEqual(preloadOf(["evals/check.eval.ts"]), [], "auto: this file has no build in that mode");
      assert.deepEqual(preloadOf(["evals/check.eval.ts", "--runtime", "bundled"]), built.meta.libs!.entries);
      mkdirSync(join(workspace, ".vscode"));
      writeFileSync(join(workspace, ".vscode/settings.json"), JSON.stringify({ "agentLens.run.runtime": "bundled" }));
      assert.deepEqual(preloadOf(["evals/check.eval.ts"]), built.meta.libs!.entries);
      assert.equal(startEarlyForArgs(["evals", "--runtime", "bundled"], workspace), undefined, "a folder: no early child");
    } finally {
      process.env.AGENT_LENS_CACHE_DIR = saved;
      if (saved === undefined) delete process.env.AGENT_LENS_CACHE_DIR;
    }
    await Promise.all(started.map((child) => child.discard()));
  });

  it("is ended when the command stops before any run (options only the command checks)", () => {
    const { workspace } = workspaceWith(ZOD_FILE);
    const jobs = runCli(["evals/check.eval.ts", "--jobs", "0"], workspace, cacheDir(), 20_000);
    assert.equal(jobs.status, 2, jobs.stderr);
    const timeout = runCli(["evals/check.eval.ts", "--timeout", "soon"], workspace, cacheDir(), 20_000);
    assert.equal(timeout.status, 2, timeout.stderr);
    assert.deepEqual(harnessChildren(), [], "no harness child is left behind");
  });
});

describe("harness: the result channel's secret", function () {
  this.timeout(60_000);

  /** What a harness child writes on fd 3 when its control pipe gives it `first` and then closes (it exits
   *  without running anything). */
  function channelOfAChild(first: string): Promise<string> {
    const child = spawn(process.execPath, [join(ensureBuilt(), "harness/child.js")], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
    return new Promise((done, fail) => {
      let said = "";
      child.stdio[3]!.on("data", (chunk: Buffer) => (said += chunk.toString("latin1")));
      child.stdio[4]!.on("error", () => undefined);
      (child.stdio[4] as NodeJS.WritableStream).end(first);
      child.once("error", fail);
      child.once("close", () => done(said));
    });
  }

  it("is the one the parent handed over on the control pipe, and every child gets its own", async () => {
    const secrets = [0, 1, 2].map(() => new HarnessChild({ cwd: root, env: { ...process.env }, heapMb: 64, nodeTest: false, cacheDir: tempDir("cache") }, harnessAssets()));
    const made = secrets.map((c) => c.channelSecret);
    await Promise.all(secrets.map((c) => c.discard()));
    for (const t of made) assert.match(t, new RegExp(`^[0-9a-f]{${TOKEN_HEX_LENGTH}}$`));
    assert.equal(new Set(made).size, made.length, "every child has its own secret");
    const secret = made[0]!;
    assert.equal(await channelOfAChild(`${secret}\n`), `${HELLO_PREFIX}${secret}\n`, "the hello carries the parent's secret");
  });

  it("a child that gets no secret (or a malformed one) says nothing on the channel and exits", async () => {
    assert.equal(await channelOfAChild(""), "");
    assert.equal(await channelOfAChild("not-a-secret-not-a-secret-not-a-\n"), "");
  });
});
