// The child's stdout and stderr are pipes, as a shell pipeline (`node file | cat`) gives them: a large
// fs.writeSync(1, …) is written whole and /dev/stdout can be opened. And no verdict is read from what a
// file prints: V8's out-of-memory line on stderr means nothing unless the child died of it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures, jsonEvents, runCli, runCollect, suiteCache } from "./support";

const dir = join(fixtures, "output");

describe("harness: the child's output", function () {
  this.timeout(60_000);
  const cacheDir = suiteCache();

  it("fs.writeSync(1, 4 MB) is written whole and /dev/stdout, /dev/stderr can be written (were EAGAIN and ENXIO: the child's stdout was a socket)", async () => {
    for (let round = 0; round < 2; round++) {
      const { events, result } = await runCollect({ file: join(dir, "writes-fd1.test.ts"), cacheDir: cacheDir() });
      const text = (stream: string) => events.flatMap((e) => (e.type === "console" && e.stream === stream ? [e.text] : [])).join("");
      assert.equal(result.status, "passed", JSON.stringify(result.tests.map((t) => t.failure?.message)));
      const stdout = text("stdout");
      assert.equal(stdout.split("a").length - 1, 4 * 1024 * 1024, "every byte written to fd 1 arrived");
      assert.match(stdout, /\nthrough \/dev\/stdout\n/);
      assert.match(stdout, /done\n/);
      assert.match(text("stderr"), /through \/dev\/stderr\n/);
    }
  });

  it("a passing file that prints V8's out-of-memory line passes (was CRASHED, 'ran out of memory')", () => {
    const r = runCli(["--json", "says-allocation-failed.test.ts"], dir, cacheDir());
    const events = jsonEvents(r.stdout);
    assert.equal(r.status, 0, r.stdout);
    assert.deepEqual(events.filter((e) => e.type === "test-end").map((e) => [e.test, e.status]), [["says-allocation-failed.test.ts", "passed"]]);
    assert.equal(events.find((e) => e.type === "end")?.status, "passed");
    assert.ok(events.some((e) => e.type === "console" && e.stream === "stderr" && e.text?.includes("Allocation failed")), "its output is still reported");
  });
});
