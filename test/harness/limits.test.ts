// Limits that mean what they say: bad --timeout / --heap values are refused with exit 2 and a clear
// message (a time limit above 2^31 ms used to become 1 ms), the API refuses them as a failed run
// without starting a process, and the VS Code setting declares the same maximum.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_TIMEOUT_SECONDS } from "../../runtime/src/harness/limits";
import { fixtures, root, runCli, runCollect, suiteCache, testEnds } from "./support";

describe("harness: limits", function () {
  this.timeout(60_000);
  const cacheDir = suiteCache();

  it("refuses a bad --timeout with exit 2 and says what it takes, before running anything", () => {
    for (const value of ["3000000", "2147484", "86400.5", "0", "0.0001", "-1", "1e3", "Infinity", "NaN", "abc", " 5", "0x10"]) {
      const r = runCli([`--timeout=${value}`, "basic/passes.test.ts"], fixtures, cacheDir());
      assert.equal(r.status, 2, `--timeout ${value}: ${r.stdout}`);
      assert.equal(r.stderr.split("\n")[0], `agent-lens run: --timeout needs a number of seconds from 0.001 to 86400 (24 h), got "${value}"`);
      assert.doesNotMatch(r.stdout, /PASS|FAIL|passed/, "nothing ran");
    }
  });

  it("refuses a bad --heap with exit 2", () => {
    for (const value of ["1.5", "8", "15", "1048577", "99999999999", "0x100", "2e3", "lots"]) {
      const r = runCli([`--heap=${value}`, "basic/passes.test.ts"], fixtures, cacheDir());
      assert.equal(r.status, 2, `--heap ${value}: ${r.stdout}`);
      assert.equal(r.stderr.split("\n")[0], `agent-lens run: --heap needs a whole number of MB from 16 to 1048576, got "${value}"`);
    }
  });

  it("takes the largest time limit and a small heap as they are", () => {
    const r = runCli(["--timeout", "86400", "--heap", "64", "basic/passes.test.ts"], fixtures, cacheDir());
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trimEnd().split("\n").at(-1), "1 passed, 0 failed");
  });

  it("runEvalFile refuses a time limit beyond what a timer holds, or a fractional heap, as a failed run with no process", async () => {
    for (const [options, pattern] of [
      [{ timeoutMs: 3_000_000_000 }, /^Not run: the time limit must be a number of seconds from 0\.001 to 86400 \(24 h\), got 3000000000 ms$/],
      [{ timeoutMs: Number.NaN }, /^Not run: the time limit must be .* got NaN ms$/],
      [{ heapMb: 1.5 }, /^Not run: the heap limit must be a whole number of MB from 16 to 1048576, got 1\.5$/],
    ] as const) {
      const { events, result } = await runCollect({ file: join(fixtures, "basic/passes.test.ts"), cacheDir: cacheDir(), ...options });
      assert.equal(result.status, "failed");
      const ends = testEnds(events);
      assert.deepEqual(ends.map((e) => [e.test, e.status, e.failure?.code]), [["passes.test.ts", "failed", "invalid-option"]]);
      assert.match(ends[0]!.failure!.message, pattern);
      const start = events.find((e) => e.type === "start");
      assert.ok(start?.type === "start" && start.pid === undefined, "no process was started");
    }
  });

  it("the VS Code setting agentLens.run.timeoutSeconds declares the same maximum", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, { minimum?: number; maximum?: number }> } } };
    const setting = pkg.contributes.configuration.properties["agentLens.run.timeoutSeconds"]!;
    assert.equal(setting.maximum, MAX_TIMEOUT_SECONDS);
    assert.ok((setting.minimum ?? 0) >= 0.001);
  });
});
