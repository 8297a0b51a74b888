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
});
