// Limits that mean what they say: bad --timeout / --heap / --max-rss values are refused with exit 2 and a
// clear message (a time limit above 2^31 ms used to become 1 ms), the API refuses them as a failed run
// without starting a process, and the VS Code setting declares the same maximum. --heap is V8's heap only;
// --max-rss ends a file that holds more memory than it allows.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_TIMEOUT_SECONDS } from "../../shared/protocol/limits";
import { fixtures, jsonEvents, root, runCli, runCollect, suiteCache, testEnds } from "./support";

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

  it("--heap is V8's heap only: a file holding 1.5 GB of Buffers passes --heap 64", () => {
    const r = runCli(["--json", "--heap", "64", "failures/runaway-buffers.test.ts"], fixtures, cacheDir());
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /held 1536 MB/);
  });

  it("--max-rss MB ends a file past it: CRASHED, 'used more than N MB of memory' (was: not an option, and the file passed)", () => {
    const r = runCli(["--json", "--max-rss", "256", "failures/runaway-buffers.test.ts"], fixtures, cacheDir());
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const events = jsonEvents(r.stdout);
    assert.equal(events.find((e) => e.type === "end")?.status, "crashed");
    const ends = events.filter((e) => e.type === "test-end");
    assert.deepEqual(ends.map((e) => [e.test, e.status, e.failure?.code]), [["runaway-buffers.test.ts", "failed", "memory"]]);
    assert.match(ends[0]!.failure!.message, /^Ran out of memory: the file used more than 256 MB of memory \(--max-rss; \d+ MB resident when it was stopped\)$/);
    assert.doesNotMatch(r.stdout, /held 1536 MB/, "it was stopped before it finished");
    const human = runCli(["--max-rss", "256", "failures/runaway-buffers.test.ts"], fixtures, cacheDir());
    assert.match(human.stdout, /CRASHED {2}failures\/runaway-buffers\.test\.ts/);
    assert.match(human.stdout, /used more than 256 MB of memory/);
  });

  it("--max-rss leaves a file under it alone, and refuses a bad value with exit 2", () => {
    const ok = runCli(["--max-rss", "1024", "basic/passes.test.ts"], fixtures, cacheDir());
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    for (const value of ["8", "1.5", "lots", "1048577"]) {
      const r = runCli([`--max-rss=${value}`, "basic/passes.test.ts"], fixtures, cacheDir());
      assert.equal(r.status, 2, `--max-rss ${value}: ${r.stdout}`);
      assert.equal(r.stderr.split("\n")[0], `agent-lens run: --max-rss needs a whole number of MB from 16 to 1048576, got "${value}"`);
    }
  });

  it("runEvalFile's maxRssMb: the same, through the API (the extension's path)", async () => {
    const { result } = await runCollect({ file: join(fixtures, "failures/runaway-buffers.test.ts"), cacheDir: cacheDir(), maxRssMb: 256 });
    assert.equal(result.status, "crashed");
    assert.equal(result.tests[0]?.failure?.code, "memory");
    const bad = await runCollect({ file: join(fixtures, "basic/passes.test.ts"), cacheDir: cacheDir(), maxRssMb: 2.5 });
    assert.match(bad.result.tests[0]?.failure?.message ?? "", /^Not run: the memory limit must be a whole number of MB from 16 to 1048576, got 2\.5$/);
  });

  it("the VS Code setting agentLens.run.timeoutSeconds declares the same maximum", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, { minimum?: number; maximum?: number }> } } };
    const setting = pkg.contributes.configuration.properties["agentLens.run.timeoutSeconds"]!;
    assert.equal(setting.maximum, MAX_TIMEOUT_SECONDS);
    assert.ok((setting.minimum ?? 0) >= 0.001);
  });
});
