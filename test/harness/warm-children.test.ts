// Warm children: a child started before the file is known, with the libraries the last file imported
// already loaded. Real runs, real processes: a warm child gives the same results as a cold start for every
// failure mode of the hostile and failing fixtures, a warm child that does not match is ended and the file
// starts cold, and cancelling, disposing or refusing leaves no process behind (ps).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleEvalFile, WarmChildren, workspaceOf, type ChildSpec, type FileRunResult, type HarnessEvent, type RunOptions } from "../../runtime/src/harness/index";
import { harnessRunner } from "../../client/src/run/harness";
import { ensureBuilt, fixtures, psSurvivors, root, runCollect, snapshot, tempDir } from "./support";

const hostile = join(fixtures, "hostile");
const failures = join(fixtures, "failures");
const basic = join(fixtures, "basic");
const programs = join(root, "test/conformance/programs");

/** What a run says about a file, without what differs between any two runs (times, pids, sample bytes). */
function outcome(events: HarnessEvent[], result: FileRunResult): unknown {
  const text = (s: string | undefined) => s?.replace(/pid \d+/g, "pid N").replace(/\d+ ms/g, "N ms");
  const failure = (f: { message: string; code?: string; location?: unknown } | undefined) => f && { message: text(f.message), code: f.code, location: f.location };
  return {
    status: result.status,
    summary: result.summary,
    tests: result.tests.map((t) => ({ test: t.test, status: t.status, location: t.location, failure: failure(t.failure) })),
    fileFailures: result.failures.map(failure),
    results: events.filter((e) => e.type === "result").map((e) => e.type === "result" && { kind: e.kind, callSite: e.callSite }),
    runtime: result.runtime,
  };
}

/** Waits until the pool's idle child has loaded its preloads; returns it. */
async function warmedUp(warm: WarmChildren): Promise<NonNullable<WarmChildren["current"]>> {
  for (let i = 0; i < 200 && !warm.current; i++) await new Promise((r) => setTimeout(r, 20));
  const child = warm.current;
  assert.ok(child, "a warm child was started behind the run");
  await child.ready;
  return child;
}

const harnessChildren = () => psSurvivors(undefined, [join(ensureBuilt(), "harness/child.js")]);

describe("harness: warm children", function () {
  this.timeout(180_000);
  let cacheDir = "";
  let before_: string[] = [];
  const folders = [hostile, failures, basic, programs];
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
    before_ = folders.flatMap(snapshot);
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));
  after("nothing was written into the fixtures' folders (the workspaces)", () => assert.deepEqual(folders.flatMap(snapshot), before_));

  const cases: Array<[string, Partial<RunOptions>]> = [
    [join(hostile, "fail-then-exit.test.ts"), {}],
    [join(hostile, "pass-then-exit.test.ts"), {}],
    [join(hostile, "channel-null.test.ts"), {}],
    [join(hostile, "channel-forged-pass.test.ts"), {}],
    [join(hostile, "channel-patched-globals.test.ts"), {}],
    [join(hostile, "channel-patched-tojson.test.ts"), {}],
    [join(hostile, "channel-closed.test.ts"), {}],
    [join(hostile, "setsid-escape.test.ts"), {}],
    [join(failures, "throws.test.ts"), {}],
    [join(failures, "rejection.test.ts"), {}],
    [join(failures, "exit-nonzero.test.ts"), {}],
    [join(failures, "exit-zero.test.ts"), {}],
    [join(failures, "unsettled-await.test.ts"), {}],
    [join(failures, "leftover-process.test.ts"), {}],
    [join(failures, "node-test-exit.test.ts"), {}],
    [join(failures, "node-test-top-level.test.ts"), {}],
    [join(failures, "node-test-unsettled-helper.test.ts"), {}],
    [join(failures, "endless-loop.test.ts"), { timeoutMs: 1500 }],
    [join(failures, "runaway-memory.test.ts"), { heapMb: 64 }],
    [join(basic, "passes.test.ts"), {}],
    [join(basic, "node-tests.test.ts"), {}],
    [join(programs, "stately-run-seam.test.ts"), {}],
    [join(programs, "falai-end-to-end.test.ts"), {}],
  ];

  for (const [file, extra] of cases) {
    it(`${file.split("/").slice(-2).join("/")}: a warm child gives the results of a cold start`, async () => {
      const cold = await runCollect({ file, cacheDir, ...extra });
      assert.equal(cold.result.process?.warm, false);
      const warm = new WarmChildren();
      try {
        // A run through the pool starts the next child behind it, for this file's spec and libraries.
        await runCollect({ file, cacheDir, warm, ...extra });
        await warmedUp(warm);
        const again = await runCollect({ file, cacheDir, warm, ...extra });
        assert.equal(again.result.process?.warm, true, `a warm child ran it (${again.result.process?.note ?? ""})`);
        assert.ok(again.result.tests.length > 0, "the file reported tests");
        assert.deepEqual(outcome(again.events, again.result), outcome(cold.events, cold.result));
      } finally {
        await warm.dispose();
      }
      assert.deepEqual(harnessChildren(), [], "no harness child is left");
      assert.deepEqual(psSurvivors(undefined, ["sleep 987", "sleep 9871"]), [], "nothing the files started is left");
    });
  }

  it("a warm child preloads the libraries the last file imported, and only after they loaded says it is ready", async () => {
    const file = join(programs, "stately-run-seam.test.ts");
    const warm = new WarmChildren();
    try {
      await runCollect({ file, cacheDir, warm });
      const bundled = await bundleEvalFile({ entry: file, workspace: workspaceOf(file), cacheDir });
      assert.ok(bundled.ok && bundled.cached);
      const meta = bundled.meta;
      assert.ok(meta.libs?.entries.length, "the bundle imports its libraries from the library layer");
      const child = await warmedUp(warm);
      assert.deepEqual([...child.preload], meta.libs!.entries);
    } finally {
      await warm.dispose();
    }
    // The mechanism itself: a preloaded module runs before the child says it is ready.
    const marker = join(tempDir("marker"), "loaded");
    const module = join(tempDir("preload"), "marks.mjs");
    writeFileSync(module, `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, String(process.pid));\n`);
    const pool = new WarmChildren();
    try {
      pool.prepare(specFor(basic, false), { entries: [module], files: [{ file: module, sha256: sha256(module) }] });
      const child = await warmedUp(pool);
      assert.equal(readFileSync(marker, "utf8"), String(child.pid));
    } finally {
      await pool.dispose();
    }
  });

  it("a library whose bytes changed since its build is not preloaded", async () => {
    const module = join(tempDir("preload"), "changed.mjs");
    const marker = join(tempDir("marker"), "loaded");
    writeFileSync(module, `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "loaded");\n`);
    const pool = new WarmChildren();
    try {
      pool.prepare(specFor(basic, false), { entries: [module], files: [{ file: module, sha256: "0".repeat(64) }] });
      const child = await warmedUp(pool);
      assert.deepEqual([...child.preload], []);
      assert.equal(existsSync(marker), false);
    } finally {
      await pool.dispose();
    }
  });

  describe("a warm child that does not match is ended, and the file starts cold", () => {
    async function missOf(prepareWith: RunOptions, run: RunOptions): Promise<FileRunResult> {
      const warm = new WarmChildren();
      try {
        await runCollect({ ...prepareWith, cacheDir, warm });
        const child = await warmedUp(warm);
        const r = await runCollect({ ...run, cacheDir, warm });
        assert.equal(r.result.process?.warm, false);
        assert.equal(r.result.status, "passed");
        await child.exited;
        assert.deepEqual(psSurvivors(child.pid), [], "the unmatched warm child is gone");
        return r.result;
      } finally {
        await warm.dispose();
      }
    }

    it("another kind of file: a plain script after a node:test file", async () => {
      const r = await missOf({ file: join(basic, "node-tests.test.ts") }, { file: join(basic, "passes.test.ts") });
      assert.equal(r.process?.note, "the file is a plain script; the warm child was started for node:test");
    });

    it("another environment", async () => {
      const r = await missOf({ file: join(basic, "passes.test.ts") }, { file: join(basic, "passes.test.ts"), env: { AGENT_LENS_TEST_VALUE: "1" } });
      assert.equal(r.process?.note, "the environment changed since the warm child was started");
    });

    it("another folder (working directory)", async () => {
      const r = await missOf({ file: join(basic, "passes.test.ts") }, { file: join(basic, "passes.test.ts"), workspace: join(basic, "..") });
      assert.equal(r.process?.note, "the warm child was started in another folder");
    });

    it("another heap limit", async () => {
      const r = await missOf({ file: join(basic, "passes.test.ts") }, { file: join(basic, "passes.test.ts"), heapMb: 512 });
      assert.equal(r.process?.note, "the warm child has another heap limit");
    });

    it("libraries the file does not import (a falai file after a stately one)", async () => {
      const r = await missOf({ file: join(programs, "stately-run-seam.test.ts") }, { file: join(programs, "falai-end-to-end.test.ts") });
      assert.match(r.process?.note ?? "", /^the warm child preloaded a library the file does not import/);
    });
  });

  it("cancelling a run on a warm child kills it and everything it started; disposing ends the idle one", async () => {
    const file = join(failures, "leftover-process.test.ts");
    const warm = new WarmChildren();
    await runCollect({ file, cacheDir, warm });
    await warmedUp(warm);
    const ac = new AbortController();
    const pending = runCollect({ file, cacheDir, warm, signal: ac.signal, onEvent: (e) => { if (e.type === "console") ac.abort(); } });
    const r = await pending;
    assert.equal(r.result.process?.warm, true);
    assert.equal(r.result.status, "cancelled");
    assert.deepEqual(psSurvivors(undefined, ["sleep 987", "sleep 988"]), [], "nothing the cancelled file started is left");
    await warmedUp(warm); // the next one, started behind the cancelled run
    await warm.dispose();
    assert.deepEqual(harnessChildren(), [], "no harness child after dispose");
    // Disposed: a later run starts none behind it.
    await runCollect({ file: join(basic, "passes.test.ts"), cacheDir, warm });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(warm.current, undefined);
    assert.deepEqual(harnessChildren(), []);
  });

  it("a warm child whose parent dies (the extension host killed) exits by itself: its control pipe closed", async () => {
    const script = `
      const { WarmChildren } = require(${JSON.stringify(join(root, "runtime/src/harness/index.ts"))});
      const warm = new WarmChildren();
      warm.prepare({ cwd: ${JSON.stringify(basic)}, env: { ...process.env }, heapMb: 2048, nodeTest: false, cacheDir: ${JSON.stringify(cacheDir)} });
      warm.current.ready.then(() => console.log(warm.current.pid));
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["--import", "tsx", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_OPTIONS: "" } });
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim()))));
    assert.ok(pid > 0 && isAlive(pid), "the warm child is up");
    parent.kill("SIGKILL");
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(isAlive(pid), false, "the warm child outlived its parent");
  });

  it("files of both libraries taking turns: the child preloads only what the last two files shared, so it takes either", async () => {
    const stately = join(programs, "stately-run-seam.test.ts");
    const falai = join(programs, "falai-end-to-end.test.ts");
    const warm = new WarmChildren();
    try {
      await runCollect({ file: stately, cacheDir, warm });
      assert.ok((await warmedUp(warm)).preload.length > 0, "after one stately file, its libraries are preloaded");
      const second = await runCollect({ file: falai, cacheDir, warm });
      assert.match(second.result.process?.note ?? "", /^the warm child preloaded a library the file does not import/);
      assert.deepEqual((await warmedUp(warm)).preload, [], "stately then falai share no library: nothing preloaded");
      const third = await runCollect({ file: stately, cacheDir, warm });
      assert.equal(third.result.process?.warm, true, `the empty child took the stately file (${third.result.process?.note})`);
      assert.equal(third.result.status, "passed");
      assert.deepEqual((await warmedUp(warm)).preload, [], "falai then stately: still nothing shared");
      const fourth = await runCollect({ file: stately, cacheDir, warm });
      assert.equal(fourth.result.process?.warm, true);
      assert.ok((await warmedUp(warm)).preload.length > 0, "two stately files in a row: their libraries are preloaded again");
    } finally {
      await warm.dispose();
    }
  });

  it("says in its log when a child starts, why one is ended, and when one dies while it waits", async () => {
    const lines: string[] = [];
    const warm = new WarmChildren({ log: (l) => lines.push(l) });
    const spec = (nodeTest: boolean): ChildSpec => ({ cwd: basic, env: { ...process.env }, heapMb: 2048, nodeTest, cacheDir });
    warm.prepare(spec(false));
    const first = await warmedUp(warm);
    warm.prepare(spec(true)); // another kind of file ran: the first child is ended, a node:test one started
    const second = await warmedUp(warm);
    process.kill(second.pid!, "SIGKILL"); // nothing asked it to end
    await second.exited;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(warm.current, undefined, "a dead child is not offered");
    assert.deepEqual(lines, [
      `warm child ${first.pid} started (plain script, 0 libraries preloaded)`,
      `warm child ${first.pid} ended: the last run needs another one`,
      `warm child ${second.pid} started (node:test, 0 libraries preloaded)`,
      `warm child ${second.pid} died while it waited (SIGKILL)`,
    ]);
    await warm.dispose();
  });

  it("where children are not allowed (an untrusted workspace) none is ever started, through the extension's runner too", async () => {
    let asked = 0;
    const warm = new WarmChildren({ allowed: () => (asked++, false) });
    const lines: string[] = [];
    const start = harnessRunner({ warm, log: (l) => lines.push(l) });
    const events: HarnessEvent[] = [];
    for (let i = 0; i < 2; i++) {
      await start({ file: join(basic, "passes.test.ts"), cwd: basic, timeoutMs: 30_000, runtime: "auto", signal: new AbortController().signal, onEvent: (e) => events.push(e) });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(warm.current, undefined);
      assert.deepEqual(harnessChildren(), [], "no warm child between runs");
    }
    assert.ok(asked >= 2, "the pool asked before each start");
    assert.equal(lines.length, 2);
    for (const line of lines) assert.match(line, /^harness: passes\.test\.ts passed in \d+ ms \(bundle (cached|built) \d+ ms, cold start \(no warm child\)\)$/);
  });
});

/** Alive and not a zombie (a child of a dead parent is reaped by init). */
function isAlive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function specFor(cwd: string, nodeTest: boolean): ChildSpec {
  return { cwd, env: { ...process.env }, heapMb: 2048, nodeTest, cacheDir: tempDir("cache") };
}
