// agent-lens run through the built CLI: the human report, the closing line, exit codes, --json,
// --shard, file discovery, and usage errors.
import assert from "node:assert/strict";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { join } from "node:path";
import { ensureBuilt, fixtures, runCli, tempDir } from "./support";

describe("harness: agent-lens run", function () {
  this.timeout(120_000);
  let cacheDir: string;
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  it("runs the test globs of a folder: each test with status and time, each failure with diff and location, then the closing line", () => {
    const r = runCli([], join(fixtures, "basic"), cacheDir);
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.at(-1), "3 passed, 2 failed, 1 skipped");
    assert.match(r.stdout, /FAIL {2}fails-assert\.test\.ts \(\d+ ms/);
    assert.match(r.stdout, /✗ fails-assert\.test\.ts \(\d+ ms\)/);
    assert.match(r.stdout, /\+ {3}a: 1,\n\s+- {3}a: 2,/);
    assert.match(r.stdout, /at fails-assert\.test\.ts:5:8/);
    assert.match(r.stdout, /✓ passes\.test\.ts \(\d+ ms\)/);
    assert.match(r.stdout, /✓ adds \(\d+ ms\)/);
    assert.match(r.stdout, /✗ group > compares strings/);
    assert.match(r.stdout, /at node-tests\.test\.ts:10:12/);
    assert.match(r.stdout, /- group > is skipped \(\d+ ms\) skipped/);
  });

  it("exits 0 only when every test passes", () => {
    const r = runCli(["passes.test.ts"], join(fixtures, "basic"), cacheDir);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trimEnd().split("\n").at(-1), "1 passed, 0 failed");
  });

  it("reports a failing assertion with its file:line and expected/actual", () => {
    const r = runCli(["paths/paths.test.ts"], fixtures, cacheDir);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /3 !== 4/);
    assert.match(r.stdout, /expected: 4\n\s+actual: {3}3/);
    assert.match(r.stdout, /at paths\/paths\.test\.ts:5:8/);
    assert.equal(r.stdout.trimEnd().split("\n").at(-1), "0 passed, 1 failed");
  });

  it("--json prints the event stream, one event per line, each naming its file", () => {
    const r = runCli(["--json", "basic/fails-assert.test.ts", "cjs"], fixtures, cacheDir);
    assert.equal(r.status, 1);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; file: string; failure?: { expected?: unknown; actual?: unknown; location?: { line: number } } });
    assert.deepEqual(events.filter((e) => e.type === "start").map((e) => e.file).sort(), [join(fixtures, "basic/fails-assert.test.ts"), join(fixtures, "cjs/commonjs.test.js")]);
    const fail = events.find((e) => e.type === "fail");
    assert.deepEqual(fail?.failure?.expected, { a: 2, b: "x" });
    assert.deepEqual(fail?.failure?.actual, { a: 1, b: "x" });
    assert.equal(fail?.failure?.location?.line, 5);
    assert.ok(events.some((e) => e.type === "console" && e.file.endsWith("commonjs.test.js")));
    assert.equal(events.filter((e) => e.type === "end").length, 2);
  });

  it("--shard i/n splits the file list into disjoint slices", () => {
    const files = (shard: string) => runCli(["--json", "--shard", shard, "basic"], fixtures, cacheDir).stdout
      .trim().split("\n").map((l) => JSON.parse(l) as { type: string; file: string }).filter((e) => e.type === "start").map((e) => e.file).sort();
    const a = files("1/2");
    const b = files("2/2");
    assert.equal(a.length + b.length, 3);
    assert.deepEqual(a.filter((f) => b.includes(f)), []);
  });

  it("--timeout applies per file", () => {
    const r = runCli(["--timeout", "1", "failures/endless-loop.test.ts"], fixtures, cacheDir);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /TIMEOUT/);
    assert.match(r.stdout, /Timed out after 1 s/);
  });

  it("bad usage exits 2 with a message", () => {
    for (const args of [["--jobs", "zero"], ["--shard", "3/2"], ["--runtime", "mine"], ["--frobnicate"]]) {
      const r = runCli(args, fixtures, cacheDir);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.match(r.stderr, /agent-lens run: /);
    }
  });

  it("keeps V8's code cache of run.js in the cache folder's v8/ where Node has no compile cache, and reports the same from it (also from a damaged one)", () => {
    const cache = tempDir("run-code-cache");
    try {
      const json = () => {
        const r = runCli(["--json", "basic/passes.test.ts"], fixtures, cache);
        assert.equal(r.status, 0, r.stderr);
        return r.stdout.replace(/"(durationMs|pid|time)":("[^"]*"|[\d.]+)/g, '"$1":"…"');
      };
      const caches = () => readdirSync(join(cache, "v8")).filter((f) => /^run-[0-9a-f]{16}\.v8$/.test(f));
      const first = json();
      // Node 22+ keeps run.js's code in its own module compile cache instead: no file of ours
      const expected = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function" ? 0 : 1;
      assert.equal(caches().length, expected, readdirSync(join(cache, "v8")).join(", "));
      assert.equal(json(), first);
      if (expected) {
        const file = join(cache, "v8", caches()[0]!);
        assert.ok(statSync(file).size > 50_000, `${statSync(file).size} bytes`);
        writeFileSync(file, "not a code cache");
        assert.equal(json(), first);
        assert.ok(statSync(file).size > 50_000, "a damaged cache is written again");
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it("no matching files is a failure, not a silent pass", () => {
    const r = runCli(["nothing-here/*.test.ts"], fixtures, cacheDir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no eval files matched/);
  });
});
