// Every way a user's file can go wrong becomes a clear failed result, and no process outlives the run.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { FailureInfo } from "../../runtime/src/harness/index";
import { ensureBuilt, fixtures, pidOf, runCollect, survivors, tempDir, testEnds, type Collected } from "./support";

const dir = join(fixtures, "failures");

describe("harness: failure modes", function () {
  this.timeout(60_000);
  let cacheDir: string;
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  async function run(name: string, extra: { timeoutMs?: number; heapMb?: number } = {}): Promise<Collected & { failure: FailureInfo }> {
    const c = await runCollect({ file: join(dir, name), cacheDir, ...extra });
    const ends = testEnds(c.events);
    assert.equal(ends.length, 1, `one test for the file, got ${JSON.stringify(ends)}`);
    assert.equal(ends[0]!.test, name);
    assert.equal(ends[0]!.status, "failed");
    assert.ok(ends[0]!.failure, "the failed test carries its failure");
    assert.deepEqual(c.result.summary, { passed: 0, failed: 1, skipped: 0 });
    assert.equal(c.events.at(-1)?.type, "end");
    // Nothing of the run is left: the child's process group is empty.
    if (c.events.some((e) => e.type === "start" && e.pid)) assert.deepEqual(survivors(pidOf(c.events)), []);
    return { ...c, failure: ends[0]!.failure! };
  }

  it("a syntax error: esbuild's message with the location", async () => {
    const { failure, result } = await run("syntax-error.test.ts");
    assert.equal(result.status, "failed");
    assert.equal(failure.code, "syntax");
    assert.match(failure.message, /Unexpected ";"/);
    assert.deepEqual(failure.location, { file: join(dir, "syntax-error.test.ts"), line: 3, column: 15 });
  });

  it("a missing import: the unresolved path with the import's location", async () => {
    const { failure } = await run("missing-import.test.ts");
    assert.equal(failure.code, "missing-import");
    assert.match(failure.message, /Could not resolve "\.\/no-such-module"/);
    assert.equal(failure.location?.line, 2);
  });

  it("an uncaught exception: its message and the throwing line", async () => {
    const { failure, events, result } = await run("throws.test.ts");
    assert.equal(result.status, "failed");
    assert.equal(failure.message, "TypeError: boom from user code");
    assert.equal(failure.code, "uncaught-exception");
    assert.deepEqual(failure.location, { file: join(dir, "throws.test.ts"), line: 2, column: 9 });
    assert.ok(events.some((e) => e.type === "console" && e.stream === "stdout" && e.text === "about to throw\n"));
    // Reported once: no raw copy of the error on stderr.
    assert.ok(!events.some((e) => e.type === "console" && e.stream === "stderr" && e.text.includes("boom")));
  });

  it("an unhandled rejection", async () => {
    const { failure } = await run("rejection.test.ts");
    assert.equal(failure.code, "unhandled-rejection");
    assert.match(failure.message, /^Unhandled promise rejection: nobody awaited this/);
    assert.equal(failure.location?.line, 3);
  });

  it("process.exit(n) with n ≠ 0: failed, pointing at the call", async () => {
    const { failure } = await run("exit-nonzero.test.ts");
    assert.equal(failure.code, "exit");
    assert.match(failure.message, /process\.exit\(3\)/);
    assert.deepEqual(failure.location, { file: join(dir, "exit-nonzero.test.ts"), line: 2, column: 9 });
  });

  it("process.exit(0) in a plain script passes, as it does under node", async () => {
    const c = await runCollect({ file: join(dir, "exit-zero.test.ts"), cacheDir });
    assert.equal(c.result.status, "passed");
    assert.deepEqual(c.result.summary, { passed: 1, failed: 0, skipped: 0 });
  });

  it("a top-level await that never settles", async () => {
    const { failure } = await run("unsettled-await.test.ts");
    assert.equal(failure.code, "unsettled-await");
    assert.match(failure.message, /^The file's top-level code never finished \(awaiting a promise that never settles\): node would exit with code 13$/);
  });

  it("an endless loop: killed at the time limit, status timeout", async () => {
    const { failure, result } = await run("endless-loop.test.ts", { timeoutMs: 1500 });
    assert.equal(result.status, "timeout");
    assert.equal(failure.code, "timeout");
    assert.match(failure.message, /Timed out after 1\.5 s/);
  });

  it("runaway memory: stopped by the heap limit with a clear message", async () => {
    const { failure, result } = await run("runaway-memory.test.ts", { heapMb: 64, timeoutMs: 30_000 });
    assert.equal(result.status, "crashed");
    assert.equal(failure.code, "heap");
    assert.match(failure.message, /heap limit of 64 MB/);
  });

  it("child processes left running: killed and reported, including one in its own session", async () => {
    const { failure, events } = await run("leftover-process.test.ts");
    assert.equal(failure.code, "leftover-process");
    assert.match(failure.message, /2 child processes/);
    assert.match(failure.message, /sleep 987/);
    assert.match(failure.message, /sleep 988/);
    assert.ok(events.some((e) => e.type === "console" && e.text.includes("finished, children still running")));
    assert.deepEqual(survivors(-1, "sleep 987").concat(survivors(-1, "sleep 988")), []);
  });

  it("a file that does not exist", async () => {
    const { failure } = await run("no-such-file.test.ts");
    assert.equal(failure.code, "not-found");
    assert.match(failure.message, /No such file: .*no-such-file\.test\.ts/);
  });

  it("cancellation kills the whole tree and ends as cancelled", async () => {
    const { runEvalFile } = await import("../../runtime/src/harness/index");
    const run = runEvalFile({ file: join(dir, "endless-loop.test.ts"), cacheDir, timeoutMs: 60_000 });
    let pid = 0;
    for await (const e of run.events) {
      if (e.type === "start") {
        pid = e.pid!;
        setTimeout(() => run.cancel(), 300);
      }
    }
    const result = await run.result;
    assert.equal(result.status, "cancelled");
    assert.ok(pid > 0);
    assert.deepEqual(survivors(pid), []);
  });
});
