// A run through the child `agent-lens run FILE` starts before it loads the harness (server/src/cli/
// run-early.ts) must say what a cold start says: the same events (times and pids masked) and the same
// verdict with the same reason, for a file that throws, exits non-zero, hangs past its time limit, never
// settles, runs replay-only without a recording, and for one that needs the variables of its env file.
// Real runs, real processes: each case runs once to build its bundle, then through the early child and
// cold, and the two are compared.
import assert from "node:assert/strict";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessEvent } from "../../runtime/src/harness/index";
import { startEarlyForArgs } from "../../server/src/cli/run-early";
import { fixtures, root, runCli, runCollect, suiteCache, suiteWorkspaces, type Collected } from "./support";

const failures = join(fixtures, "failures");
const programs = join(root, "test/conformance/programs");

/** `value` with what differs between two runs of one file masked: times, durations, pids. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ["durationMs", "pid", "time"].includes(k) ? "…" : masked(v)]));
}

/** The events and the result, masked, without the result's description of the child that ran it. */
function comparable(c: Collected): { events: unknown; result: unknown } {
  const { process: _child, ...result } = c.result;
  return { events: masked(c.events), result: masked(result) };
}

describe("agent-lens run FILE: the early child gives the cold start's verdicts", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  const workspace = suiteWorkspaces();

  /** Runs `file` through the early child (made from `argv` as the CLI would, in `cwd`), then cold, after a
   *  first run that builds its bundle; returns both, having checked which child each used. */
  async function bothWays(cwd: string, file: string, argv: string[], options: { timeoutMs?: number; envFile?: string; recordings?: "replay-only" } = {}): Promise<[Collected, Collected]> {
    const saved = process.env.AGENT_LENS_CACHE_DIR;
    process.env.AGENT_LENS_CACHE_DIR = cacheDir();
    try {
      const common = { file, cacheDir: cacheDir(), ...options };
      await runCollect(common);
      const early = startEarlyForArgs(argv, cwd);
      const child = early?.take(file);
      assert.ok(child, `an early child was started for ${argv.join(" ")}`);
      const viaEarly = await runCollect({ ...common, startEarly: true, earlyChild: child });
      const cold = await runCollect(common);
      assert.equal(viaEarly.result.process?.early, true, `the early child ran the file: ${JSON.stringify(viaEarly.result.process)}`);
      assert.notEqual(cold.result.process?.early, true);
      assert.deepEqual(comparable(viaEarly), comparable(cold));
      return [viaEarly, cold];
    } finally {
      if (saved === undefined) delete process.env.AGENT_LENS_CACHE_DIR;
      else process.env.AGENT_LENS_CACHE_DIR = saved;
    }
  }

  it("a file that throws: failed, the error and its line", async () => {
    const [early] = await bothWays(failures, join(failures, "throws.test.ts"), ["throws.test.ts"]);
    assert.equal(early.result.status, "failed");
    assert.equal(early.result.tests[0]?.failure?.code, "uncaught-exception");
    assert.equal(early.result.tests[0]?.failure?.message, "TypeError: boom from user code");
  });

  it("a file that calls process.exit(3): failed, pointing at the call", async () => {
    const [early] = await bothWays(failures, join(failures, "exit-nonzero.test.ts"), ["exit-nonzero.test.ts"]);
    assert.equal(early.result.status, "failed");
    assert.match(early.result.tests[0]?.failure?.message ?? "", /process\.exit\(3\)/);
  });

  it("a file that never ends: timeout at its limit", async () => {
    const [early] = await bothWays(failures, join(failures, "endless-loop.test.ts"), ["endless-loop.test.ts", "--timeout", "1.5"], { timeoutMs: 1500 });
    assert.equal(early.result.status, "timeout");
    assert.match(early.result.tests[0]?.failure?.message ?? "", /Timed out after 1\.5 s/);
  });

  it("a file whose top-level await never settles: failed, said so", async () => {
    const [early] = await bothWays(failures, join(failures, "unsettled-await.test.ts"), ["unsettled-await.test.ts"]);
    assert.equal(early.result.status, "failed");
    assert.equal(early.result.tests[0]?.failure?.code, "unsettled-await");
  });

  it("a replay-only run of a file that has no recording: failed, not recorded, its model call never made", async () => {
    const [early] = await bothWays(programs, join(programs, "falai-end-to-end.test.ts"), ["falai-end-to-end.test.ts", "--replay-only"], { recordings: "replay-only" });
    assert.equal(early.result.status, "failed");
    assert.equal(early.result.tests[0]?.failure?.code, "not-recorded");
    assert.match(early.result.tests[0]?.failure?.message ?? "", /a replay-only run makes no live model calls/);
  });

  it("a file that needs its env file's variables: passes with them, fails without, both ways", async () => {
    const dir = workspace({
      ".env": "AGENT_LENS_TEST_GREETING=hello from the env file\n",
      "evals/env.eval.ts": `if (process.env.AGENT_LENS_TEST_GREETING !== "hello from the env file") throw new Error("no greeting: " + process.env.AGENT_LENS_TEST_GREETING);\nconsole.log(process.env.AGENT_LENS_TEST_GREETING);\n`,
    });
    const file = join(dir, "evals/env.eval.ts");
    const [withFile] = await bothWays(dir, file, ["evals/env.eval.ts", "--env-file", ".env"], { envFile: join(dir, ".env") });
    assert.equal(withFile.result.status, "passed");
    assert.ok(withFile.events.some((e) => e.type === "console" && e.text === "hello from the env file\n"));
    const [without] = await bothWays(dir, file, ["evals/env.eval.ts"]);
    assert.equal(without.result.status, "failed");
    assert.match(without.result.tests[0]?.failure?.message ?? "", /no greeting: undefined/);
  });

  it("through the command: --json of one file (early child) and of it beside another (none) say the same", () => {
    const dir = workspace({});
    for (const name of ["throws.test.ts", "exit-nonzero.test.ts"]) copyFileSync(join(failures, name), join(dir, name));
    writeFileSync(join(dir, "passes.test.ts"), `console.log("fine");\n`);
    const events = (stdout: string, name: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as HarnessEvent & { file?: string })
      .filter((e) => e.file === join(dir, name)).map((e) => JSON.stringify(masked(e)));
    for (const name of ["throws.test.ts", "exit-nonzero.test.ts"]) {
      runCli([name], dir, cacheDir()); // builds the bundle
      const alone = runCli(["--json", name], dir, cacheDir());
      const beside = runCli(["--json", name, "passes.test.ts"], dir, cacheDir());
      assert.equal(alone.status, 1, alone.stderr);
      assert.equal(beside.status, 1, beside.stderr);
      assert.ok(events(alone.stdout, name).some((e) => e.includes('"status":"failed"')), alone.stdout);
      assert.deepEqual(events(alone.stdout, name), events(beside.stdout, name));
    }
  });
});
