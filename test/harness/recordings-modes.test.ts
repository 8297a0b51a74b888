// The three ways to run and what each writes, through real processes: record rewrites only the tests that
// ran (an unchanged test keeps its bytes), never from a run that did not end normally; replays of one file
// give the same --json every time; drift of every kind fails its test even when the test's code swallows the
// error; --env-file gives the child its keys without showing them; a warm child never serves another mode.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WarmChildren } from "../../runtime/src/harness/index";
import { startEarlyForArgs } from "../../server/src/cli/run-early";
import { project, runCliAsync } from "./recordings-support";
import { jsonEvents, runCollect, suiteCache } from "./support";

const SECRET = "tok-env-file-77aa11bb22";

/** Two tests asking a falai agent (a hand-written provider that answers only while LIVE=1). */
const EVAL = (options: { promptA?: string; answerB?: string; extraCallInA?: boolean; catchInA?: boolean; concurrent?: boolean } = {}) => `import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { falai, fakeClock, type AiProvider } from "@falai/agent";

const f = falai().fields({});
const provider: AiProvider & { model: string } = {
  name: "hand-written", model: "gpt-5-mini",
  capabilities: { supportsTools: false, supportsNativeJsonSchema: true, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false },
  async generateMessage(input) {
    if (process.env.LIVE !== "1") throw new Error("a live call");
    const answer = input.prompt.includes("Flow B") ? ${JSON.stringify(options.answerB ?? "B!")} : "A!";
    return { message: answer, structured: { message: answer }, metadata: { model: "gpt-5-mini", promptTokens: 100, completionTokens: 10 } };
  },
};
const agent = (prompt: string, id: string) => f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [f.flow({ id, name: id, on: [{ message: [] }], steps: [{ id: "s", prompt }] })] });

describe("two", { concurrency: ${options.concurrent ? "true" : "1"} }, () => {
  test("a", async () => {
    try {
      const r = await agent(${JSON.stringify(options.promptA ?? "Flow A says hello.")}, "a").turn({ sessionId: "s", message: "oi", id: "m1" });
      assert.equal(r.messages[0]?.text, "A!");
      ${options.extraCallInA ? `await agent("Flow A again.", "a2").turn({ sessionId: "s2", message: "oi", id: "m1" });` : ""}
    } catch (error) {
      ${options.catchInA ? "// swallowed on purpose: the run must still fail" : "throw error;"}
    }
  });
  test("b", { skip: process.env.SKIP_B === "1" }, async () => {
    const r = await agent("Flow B says hello.", "b").turn({ sessionId: "s", message: "oi", id: "m1" });
    assert.equal(r.messages[0]?.text, ${JSON.stringify(options.answerB ?? "B!")});
  });
});
`;

describe("recordings: the three ways to run", function () {
  this.timeout(300_000);
  const cache = suiteCache();
  const file = "two.eval.ts";
  let dir: string;
  const recording = () => join(dir, "__recordings__", `${file}.json`);
  const read = () => JSON.parse(readFileSync(recording(), "utf8")) as { tests: Record<string, { recordedAt: string; calls: Array<{ output: { message: string } }> }> };
  beforeEach(() => (dir = project({ [file]: EVAL() })));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("--record rewrites only the tests that ran; recording an unchanged test again changes no byte", async () => {
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" })).status, 0);
    const first = readFileSync(recording(), "utf8");
    assert.deepEqual(Object.keys(read().tests), ["two > a", "two > b"]);
    await new Promise((r) => setTimeout(r, 20));
    const again = await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" });
    assert.match(again.stdout, /recording: __recordings__\/two\.eval\.ts\.json not written: the recording is unchanged/);
    assert.equal(readFileSync(recording(), "utf8"), first);
    // b answers otherwise now, but is skipped: its entry stays as it was recorded
    writeFileSync(join(dir, file), EVAL({ answerB: "B changed!", promptA: "Flow A says hi." }));
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1", SKIP_B: "1" })).status, 0);
    const now = read();
    assert.equal(now.tests["two > b"]!.calls[0]!.output.message, "B!");
    assert.equal(now.tests["two > b"]!.recordedAt, JSON.parse(first).tests["two > b"].recordedAt);
    assert.notEqual(now.tests["two > a"]!.recordedAt, JSON.parse(first).tests["two > a"].recordedAt);
  });

  it("testNamePatterns: a record run of one test of a node:test file runs only it and rewrites only its entry", async () => {
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" })).status, 0);
    const first = read();
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(dir, file), EVAL({ answerB: "B changed!", promptA: "Flow A says hi." }));
    const warm = new WarmChildren();
    try {
      const { events, result } = await runCollect({ file: join(dir, file), cacheDir: cache(), warm, env: { LIVE: "1" }, recordings: "record", testNamePatterns: ["^b$"] });
      assert.equal(result.status, "passed");
      const ends = events.flatMap((e) => (e.type === "test-end" ? [`${e.test}: ${e.status}`] : []));
      assert.deepEqual(ends, ["two > a: skipped", "two > b: passed"]);
      assert.deepEqual(result.recording?.tests, ["two > b"]);
      const now = read();
      assert.equal(now.tests["two > b"]!.calls[0]!.output.message, "B changed!");
      assert.deepEqual(now.tests["two > a"], first.tests["two > a"], "a did not run: its entry is as it was");
      await new Promise((r) => setTimeout(r, 300));
      // The child started behind it is one for the whole file: the next plain run takes it.
      const next = await runCollect({ file: join(dir, file), cacheDir: cache(), warm, env: { LIVE: "1" }, recordings: "record" });
      assert.equal(next.result.process?.warm, true, next.result.process?.note);
      assert.deepEqual(next.events.flatMap((e) => (e.type === "test-end" ? [e.status] : [])), ["passed", "passed"]);
    } finally {
      await warm.dispose();
    }
  });

  it("a record run that does not end normally writes nothing", async () => {
    writeFileSync(join(dir, file), `${EVAL()}\ntest("hangs", () => new Promise(() => setInterval(() => {}, 1000)));\n`);
    const r = await runCliAsync(["--record", "--timeout", "3", file], dir, cache(), { LIVE: "1" });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /recording: __recordings__\/two\.eval\.ts\.json not written: the run did not end normally \(timeout\): nothing was recorded/);
    assert.equal(existsSync(recording()), false);
  });

  it("replays of one file give the same --json every time (times, durations and pids masked)", async () => {
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" })).status, 0);
    const mask = (stdout: string) => stdout.replace(/"(time|durationMs|pid)":("[^"]*"|[\d.]+)/g, '"$1":0');
    const outputs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await runCliAsync(["--json", file], dir, cache());
      assert.equal(r.status, 0, r.stdout);
      outputs.add(mask(r.stdout));
    }
    assert.equal(outputs.size, 1);
    assert.equal(jsonEvents([...outputs][0]!).filter((e) => e.type === "model-call").length, 2);
  });

  it("drift fails the test even when its code swallows the error; a recorded call never made fails it at its end", async () => {
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" })).status, 0);
    writeFileSync(join(dir, file), EVAL({ promptA: "Flow A says hi.", catchInA: true }));
    const swallowed = await runCliAsync([file], dir, cache());
    assert.equal(swallowed.status, 1);
    assert.match(swallowed.stdout, /✗ two > a[^\n]*\n\s+replay drifted at call #1 \(call "speak", occurrence 1\): the prompt changed/);
    assert.match(swallowed.stdout, /✓ two > b/);
    writeFileSync(join(dir, file), EVAL({ extraCallInA: true }));
    const extra = await runCliAsync([file], dir, cache());
    assert.match(extra.stdout, /replay drifted at call #2 \(call "speak", occurrence 2\): the recording of this test has no such call \(it recorded 1 "speak" call\)/);
    writeFileSync(join(dir, file), EVAL().replace('await agent("Flow B says hello.", "b").turn({ sessionId: "s", message: "oi", id: "m1" })', '({ messages: [{ text: "B!" }] })'));
    const missing = await runCliAsync([file], dir, cache());
    assert.equal(missing.status, 1);
    assert.match(missing.stdout, /✗ two > b[^\n]*\n\s+replay drifted at call #1 \(call "speak", occurrence 1\): the recording has this call, and the test no longer makes it/);
  });

  it("without a recording: a plain run goes live, --replay-only fails each test saying how to record it", async () => {
    const live = await runCliAsync([file], dir, cache(), { LIVE: "1" });
    assert.equal(live.status, 0, live.stdout);
    assert.match(live.stdout, /speak #1 · live \(gpt-5-mini\) · 100 in \/ 10 out tokens · ≈ \$0\.000045/);
    assert.equal(existsSync(recording()), false, "a plain run writes nothing");
    const ci = await runCliAsync(["--replay-only", file], dir, cache(), { LIVE: "1" });
    assert.equal(ci.status, 1);
    assert.match(ci.stdout, /no recording for test "two > a" in .*__recordings__\/two\.eval\.ts\.json: a replay-only run makes no live model calls\. Record it with: agent-lens run --record two\.eval\.ts/);
    assert.match(ci.stdout, /0 passed, 2 failed/);
  });

  it("a prompt of 150,000 characters is recorded whole (frames cut long strings short; a model call is kept exactly)", async () => {
    writeFileSync(join(dir, file), EVAL({ promptA: `Flow A ${"says hello. ".repeat(14_000)}` }));
    assert.equal((await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" })).status, 0);
    assert.ok(readFileSync(recording(), "utf8").length > 150_000);
    const replay = await runCliAsync(["--replay-only", file], dir, cache());
    assert.equal(replay.status, 0, replay.stdout);
  });

  it("tests running at once cannot be recorded or replayed per test: the file fails and says why", async () => {
    writeFileSync(join(dir, file), EVAL({ concurrent: true }));
    const r = await runCliAsync(["--record", file], dir, cache(), { LIVE: "1" });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /A model call started while 2 tests ran at once \("two > a", "two > b"\)/);
  });

  it("--env-file gives the child its variables (the environment's own win), and never shows a value", async () => {
    writeFileSync(join(dir, ".env.test"), `LIVE=1\nMY_API_TOKEN=${SECRET}\n`);
    writeFileSync(join(dir, file), `${EVAL()}\ntest("sees the key", () => { console.log("token:", process.env.MY_API_TOKEN); assert.equal(process.env.MY_API_TOKEN, ${JSON.stringify(SECRET)}); });\n`);
    const r = await runCliAsync(["--env-file", ".env.test", "--json", file], dir, cache());
    assert.equal(r.status, 0, r.stdout);
    assert.equal(r.stdout.includes(SECRET), false);
    assert.ok(r.stdout.includes("token: [redacted]"));
    // Node 20 itself checks an --env-file argument even after the script (and exits 9 before the CLI runs).
    const missing = await runCliAsync(["--env-file", "nope.env", file], dir, cache());
    if (Number(process.versions.node.split(".")[0]) === 20) assert.deepEqual([missing.status, /node: nope\.env: not found$/.test(missing.stderr.trim())], [9, true]);
    else assert.match(missing.stderr, /--env-file names .*nope\.env, which does not exist/);
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ "agentLens.run.envFile": "nope.env" }));
    const setting = await runCliAsync(["--config", "settings.json", file], dir, cache());
    assert.equal(setting.status, 2);
    assert.match(setting.stderr, /agentLens\.run\.envFile names .*nope\.env, which does not exist/);
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ "agentLens.run.envFile": ".env.test" }));
    assert.equal((await runCliAsync(["--config", "settings.json", file], dir, cache())).status, 0, "the setting's file is read");
    const api = await runCollect({ file: join(dir, file), envFile: "nope.env", cacheDir: cache() });
    assert.equal(api.result.status, "failed");
    assert.match(api.result.tests[0]!.failure!.message, /^Not run: the env file .*nope\.env does not exist$/);
  });

  it("the CLI's early child is started in the run's recordings mode: taken by that run, refused by another", async () => {
    const cwd = process.cwd();
    const saved = { LIVE: process.env.LIVE, AGENT_LENS_CACHE_DIR: process.env.AGENT_LENS_CACHE_DIR };
    process.chdir(dir);
    process.env.LIVE = "1";
    process.env.AGENT_LENS_CACHE_DIR = cache(); // the early child's cache folder is the default one
    try {
      const path = join(dir, file);
      for (const [args, mode, taken] of [[["--record", file], "record", true], [["--replay-only", file], "replay-only", false], [[file], "auto", true]] as const) {
        const child = startEarlyForArgs([...args])?.take(path);
        const { result } = await runCollect({ file: path, cacheDir: cache(), recordings: mode === "replay-only" ? "auto" : mode, earlyChild: child });
        assert.equal(result.process?.early === true, taken, `${args.join(" ")}: ${JSON.stringify(result.process)}`);
        if (!taken) assert.match(result.process?.note ?? "", /started for a run in recordings mode replay-only, this one is auto/);
      }
    } finally {
      process.chdir(cwd);
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("a warm child started for one recordings mode never serves another", async () => {
    const warm = new WarmChildren();
    try {
      const path = join(dir, file);
      await runCollect({ file: path, cacheDir: cache(), warm, env: { LIVE: "1" } });
      await new Promise((r) => setTimeout(r, 300));
      const record = await runCollect({ file: path, cacheDir: cache(), warm, env: { LIVE: "1" }, recordings: "record" });
      assert.equal(record.result.process?.warm, false);
      assert.match(record.result.process?.note ?? "", /recordings mode auto, this one is record/);
      assert.equal(record.result.recording?.written, true);
    } finally {
      await warm.dispose();
    }
  });
});
