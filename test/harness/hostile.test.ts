// Hostile eval files through the real CLI and harness: each case asserts the exit code, the status of
// every test, the message, and that `ps` shows nothing of the run afterwards. The run never lies.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures, jsonEvents, psSurvivors, runCli, suiteCache, type JsonEvent } from "./support";

const dir = join(fixtures, "hostile");

describe("harness: hostile files through agent-lens run", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();

  /** Runs files with --json and then without: the events, the human report, both exit codes. */
  function run(files: string[], needles: string[] = []): { status: number | null; events: JsonEvent[]; report: string; reportStatus: number | null } {
    const json = runCli(["--json", ...files], dir, cacheDir());
    const events = jsonEvents(json.stdout);
    const human = runCli(files, dir, cacheDir());
    // Nothing of either run is left: no process in a child's group, none carrying a needle.
    for (const start of events.filter((e) => e.type === "start" && e.pid)) assert.deepEqual(psSurvivors(start.pid, needles), [], `survivors of ${start.file}`);
    assert.deepEqual(psSurvivors(undefined, [dir, ...needles]), [], "processes still running a hostile fixture");
    return { status: json.status, events, report: human.stdout, reportStatus: human.status };
  }
  const ends = (events: JsonEvent[], file: string) => events.filter((e) => e.type === "test-end" && e.file === join(dir, file)).map((e) => [e.test, e.status, e.failure?.code]);
  const endOf = (events: JsonEvent[], file: string) => events.find((e) => e.type === "end" && e.file === join(dir, file));
  const fileFails = (events: JsonEvent[], file: string) => events.filter((e) => e.type === "fail" && e.file === join(dir, file) && !e.test).map((e) => e.failure!);

  it("a failing test, then process.exit(0) in the next: FAIL, exit 1 (was PASS, 0 passed, 0 failed, exit 0)", () => {
    const r = run(["fail-then-exit.test.ts"]);
    assert.equal(r.status, 1);
    assert.equal(r.reportStatus, 1);
    assert.deepEqual(ends(r.events, "fail-then-exit.test.ts"), [["fails first", "failed", "ERR_ASSERTION"], ["exits", "failed", "exit"]]);
    const exits = r.events.find((e) => e.type === "test-end" && e.test === "exits")!;
    assert.equal(exits.failure?.message, "did not finish: process.exit(0) was called");
    assert.deepEqual(exits.failure?.location, { file: join(dir, "fail-then-exit.test.ts"), line: 8, column: 11 });
    const [fileFailure] = fileFails(r.events, "fail-then-exit.test.ts");
    assert.equal(fileFailure?.code, "exit");
    assert.equal(fileFailure?.message, "process.exit(0) was called before the test runner had reported every test");
    assert.equal(endOf(r.events, "fail-then-exit.test.ts")?.status, "failed");
    assert.match(r.report, /FAIL {2}fail-then-exit\.test\.ts/);
    assert.match(r.report, /process\.exit\(0\) was called before the test runner had reported every test/);
    assert.equal(r.report.trimEnd().split("\n").at(-1), "0 passed, 2 failed");
  });

  it("a passing test, then process.exit(0): the first keeps its pass, the exiting test and the file fail", () => {
    const r = run(["pass-then-exit.test.ts"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "pass-then-exit.test.ts"), [["passes first", "passed", undefined], ["exits", "failed", "exit"]]);
    assert.deepEqual(fileFails(r.events, "pass-then-exit.test.ts").map((f) => f.message), ["process.exit(0) was called before the test runner had reported every test"]);
    assert.deepEqual(endOf(r.events, "pass-then-exit.test.ts")?.summary, { passed: 1, failed: 1, skipped: 0 });
    assert.match(r.report, /✓ passes first/);
    assert.match(r.report, /✗ exits/);
    assert.equal(r.report.trimEnd().split("\n").at(-1), "1 passed, 1 failed");
  });

  it("null written to fd 3: that file fails with a clear message, the other file in the run keeps its pass (was a TypeError crash of the runner)", () => {
    const r = run(["channel-null.test.ts", "../basic/passes.test.ts"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "channel-null.test.ts"), [["channel-null.test.ts", "failed", "channel"]]);
    const failure = r.events.find((e) => e.type === "test-end" && e.test === "channel-null.test.ts")!.failure!;
    assert.match(failure.message, /^The result channel was tampered with: something other than the harness wrote 5 bytes to it \(file descriptor 3\), starting "null\\n"/);
    assert.ok(r.events.some((e) => e.type === "console" && e.text === "wrote to fd 3\n"), "the file's own output still arrives");
    assert.deepEqual(r.events.filter((e) => e.type === "test-end" && e.file === join(fixtures, "basic/passes.test.ts")).map((e) => e.status), ["passed"]);
    assert.match(r.report, /PASS {2}\.\.\/basic\/passes\.test\.ts/);
    assert.equal(r.report.trimEnd().split("\n").at(-1), "1 passed, 1 failed");
  });

  it("600 MB without a newline on fd 3: counted and dropped, the other file keeps its pass (was 'Invalid string length')", () => {
    const r = run(["channel-flood.test.ts", "../basic/passes.test.ts"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "channel-flood.test.ts"), [["channel-flood.test.ts", "failed", "channel"]]);
    const failure = r.events.find((e) => e.type === "test-end" && e.test === "channel-flood.test.ts")!.failure!;
    assert.match(failure.message, /wrote 629145600 bytes to it \(file descriptor 3\), starting "aaaa/);
    assert.ok(r.events.some((e) => e.type === "console" && e.text === "flooded\n"));
    assert.deepEqual(r.events.filter((e) => e.type === "test-end" && e.file === join(fixtures, "basic/passes.test.ts")).map((e) => e.status), ["passed"]);
  });

  it("a forged passing test-end on fd 3 changes nothing: the real failure stands, the forgery is reported", () => {
    const r = run(["channel-forged-pass.test.ts"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "channel-forged-pass.test.ts"), [["channel-forged-pass.test.ts", "failed", "uncaught-exception"]]);
    assert.equal(r.events.find((e) => e.type === "test-end")!.failure?.message, "the real outcome");
    assert.match(fileFails(r.events, "channel-forged-pass.test.ts")[0]?.message ?? "", /tampered with: something other than the harness wrote \d+ bytes .*starting "\{\\"type\\":\\"test-end\\"/);
    assert.match(r.report, /the real outcome\n\s+at channel-forged-pass\.test\.ts:5:7/);
    assert.match(r.report, /The result channel was tampered with/);
  });

  // Each patch, made by the file before its test runs, rewrote the harness's frames of the failing test (and
  // its `done`) into a pass: Buffer.from and Object.prototype.toJSON gave PASS, exit 0.
  for (const [name, what] of [["channel-patched-globals.test.ts", "Buffer.from"], ["channel-patched-tojson.test.ts", "Object.prototype.toJSON"], ["channel-patched-builtins.test.ts", "JSON.stringify, fs.writeSync, Buffer.byteLength, Object.keys"]]) {
    it(`patching ${what} cannot rewrite the harness's frames: the failing test stays failed, with its assertion (${name})`, () => {
      const r = run([name]);
      assert.equal(r.status, 1);
      assert.equal(r.reportStatus, 1);
      assert.deepEqual(ends(r.events, name), [["fails", "failed", "ERR_ASSERTION"]]);
      const failure = r.events.find((e) => e.type === "test-end")!.failure!;
      assert.match(failure.message, /1 !== 2/);
      assert.deepEqual(fileFails(r.events, name), [], "nothing was refused on the channel: every frame was the harness's own");
      assert.equal(endOf(r.events, name)?.status, "failed");
      assert.equal(r.report.trimEnd().split("\n").at(-1), "0 passed, 1 failed");
    });
  }

  it("fd 3 closed by the file: failed because the final report never came (was a vague 'did not finish')", () => {
    const r = run(["channel-closed.test.ts"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "channel-closed.test.ts"), [["channel-closed.test.ts", "failed", "channel"]]);
    assert.match(r.events.find((e) => e.type === "test-end")!.failure!.message, /^The run ended without the harness child's final report \(exit code 1\): the file closed or replaced the result channel/);
    assert.equal(endOf(r.events, "channel-closed.test.ts")?.status, "failed");
  });

  it("a setsid double fork: the escaped session leader is found by the run token, killed and reported by pid and command (was left running, run passed)", () => {
    const r = run(["setsid-escape.test.ts"], ["sleep 9871"]);
    assert.equal(r.status, 1);
    assert.deepEqual(ends(r.events, "setsid-escape.test.ts"), [["setsid-escape.test.ts", "failed", "leftover-process"]]);
    const failure = r.events.find((e) => e.type === "test-end")!.failure!;
    assert.match(failure.message, /^The file left 1 child process running after it finished; Agent Lens killed it:\n {2}pid \d+: sleep 9871$/);
    assert.ok(r.events.some((e) => e.type === "console" && e.text === "escaped\n"));
    assert.match(r.report, /pid \d+: sleep 9871/);
  });
});
