// Files that use node:test report one result per test, named by suite path, located in the source.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBuilt, fixtures, runCollect, tempDir, testEnds } from "./support";

describe("harness: node:test files", function () {
  this.timeout(60_000);
  let cacheDir: string;
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  it("gives per-test results with name, location, status, duration and failure", async () => {
    const file = join(fixtures, "basic/node-tests.test.ts");
    const { events, result } = await runCollect({ file, cacheDir });
    const ends = testEnds(events);
    assert.deepEqual(ends.map((e) => [e.test, e.status]), [
      ["adds", "passed"],
      ["group > compares strings", "failed"],
      ["group > is skipped", "skipped"],
      ["group > waits", "passed"],
    ]);
    assert.deepEqual(ends[0]!.location, { file, line: 4, column: 1 });
    assert.deepEqual(ends[1]!.path, ["group", "compares strings"]);
    const failure = ends[1]!.failure!;
    assert.equal(failure.code, "ERR_ASSERTION");
    assert.equal(failure.expected, "expected text");
    assert.equal(failure.actual, "actual text");
    assert.equal(failure.operator, "strictEqual");
    assert.deepEqual(failure.location, { file, line: 10, column: 12 });
    assert.ok(ends.every((e) => typeof e.durationMs === "number"));
    // Every test-end has its test-start before it.
    for (const end of ends) {
      const start = events.findIndex((e) => e.type === "test-start" && e.test === end.test);
      assert.ok(start >= 0 && start < events.indexOf(end), end.test);
    }
    assert.equal(result.status, "failed");
    assert.deepEqual(result.summary, { passed: 2, failed: 1, skipped: 1 });
  });

  it("process.exit() while tests are queued fails the tests that did not finish, at the exit call", async () => {
    const file = join(fixtures, "failures/node-test-exit.test.ts");
    const { events, result } = await runCollect({ file, cacheDir });
    const ends = testEnds(events);
    assert.deepEqual(ends.map((e) => [e.test, e.status]), [["finishes", "passed"], ["exits", "failed"], ["queued after", "failed"]]);
    for (const e of ends.slice(1)) {
      assert.equal(e.failure?.code, "exit");
      assert.match(e.failure?.message ?? "", /did not finish: process\.exit\(0\) was called/);
      assert.deepEqual(e.failure?.location, { file, line: 6, column: 11 });
    }
    assert.equal(result.status, "failed");
  });

  it("a top-level error after registering tests becomes a failed test named after the file", async () => {
    const file = join(fixtures, "failures/node-test-top-level.test.ts");
    const { events, result } = await runCollect({ file, cacheDir });
    const ends = testEnds(events);
    assert.deepEqual(ends.map((e) => [e.test, e.status]), [["runs", "passed"], ["node-test-top-level.test.ts", "failed"]]);
    assert.equal(ends[1]!.failure?.message, "top-level failure after registering a test");
    assert.deepEqual(ends[1]!.failure?.location, { file, line: 4, column: 7 });
    assert.deepEqual(result.summary, { passed: 1, failed: 1, skipped: 0 });
  });

  // node exits 13 on both (an unsettled top-level await); the run was PASS, exit 0.
  for (const [name, passing] of [["node-test-unsettled.test.ts", "passes before the wait"], ["node-test-unsettled-helper.test.ts", "passes before the helper"]]) {
    it(`top-level code that never finishes fails the file, its finished test keeps its pass (${name})`, async () => {
      const file = join(fixtures, "failures", name);
      const { events, result } = await runCollect({ file, cacheDir });
      const ends = testEnds(events);
      assert.deepEqual(ends.map((e) => [e.test, e.status, e.failure?.code]), [[passing, "passed", undefined], [name, "failed", "unsettled-await"]]);
      assert.match(ends[1]!.failure!.message, /^The file's top-level code never finished \(awaiting a promise that never settles/);
      assert.deepEqual(result.failures.map((f) => f.code), ["unsettled-await"]);
      assert.equal(result.status, "failed");
      assert.deepEqual(result.summary, { passed: 1, failed: 1, skipped: 0 });
    });
  }
});
