// agent-lens run --repeat N through the built CLI: a test whose executor decides at random between two
// branches is FLAKY, with a pass rate inside its 95% interval and the end states its runs reached; a
// scripted file runs once (deterministic); --pass-rate decides the exit code; --json carries the run
// number on every event and one repeat line per test.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RepeatSummary } from "@agent-lens/protocol";
import { spawn } from "node:child_process";
import { cliPath, root, runCli, suiteCache, tempDir } from "../harness/support";

const examples = join(root, "examples");

const RANDOM_EVAL = `import assert from "node:assert/strict";
import { test } from "node:test";
import { runAgent } from "@statelyai/agent";
import { machine } from "./support-triage";

test("a question is answered", async () => {
  const result = await runAgent(machine, {
    input: { ticket: "Where is my invoice?" },
    executors: {
      // a model that picks either branch: the test passes about half the time
      decide: async () => ({ event: { type: Math.random() < 0.5 ? "ANSWER" : "ESCALATE" } }),
      generateText: async () => ({ result: "Under Billing." }),
    },
  });
  assert.equal(result.status, "done");
  assert.equal(result.status === "done" && result.output.route, "answer");
});

test("the ticket is read", () => {
  assert.ok(true);
});
`;

const SCRIPTED_EVAL = `import assert from "node:assert/strict";
import { runSeam } from "@statelyai/agent/testing";
import { machine } from "./email-agent";

const run = await runSeam(machine, { input: { topic: "cards" }, scripts: { draftEmail: ["Hi."], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });
assert.deepEqual(run.seamOutput, { score: 4 });
`;

describe("cli: agent-lens run --repeat", function () {
  this.timeout(300_000);
  const cache = suiteCache();
  let dir: string;
  before(() => {
    dir = tempDir("repeat");
    for (const f of ["package.json", "tsconfig.json", "stately/support-triage.ts", "stately/email-agent.ts"]) writeFileSync(join(dir, f.replace("stately/", "")), readFileSync(join(examples, f), "utf8"));
    writeFileSync(join(dir, "random.eval.ts"), RANDOM_EVAL);
    writeFileSync(join(dir, "scripted.test.ts"), SCRIPTED_EVAL);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const pct = (s: string) => Number(s) / 100;

  it("--repeat 20: the random test is FLAKY with its rate inside its interval and the states its runs reached; the scripted file runs once; exit 1", () => {
    const r = runCli(["--repeat", "20", "--jobs", "2"], dir, cache());
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const line = /^FLAKY random\.eval\.ts > a question is answered: (\d+)\/20 passed \(([\d.]+)%, ([\d.]+)%–([\d.]+)%\); (\d+)\/20 reached (\w+), (\d+)\/20 reached (\w+)$/m.exec(r.stdout);
    assert.ok(line, r.stdout);
    const passed = Number(line[1]);
    assert.ok(passed > 0 && passed < 20);
    const [rate, low, high] = [pct(line[2]!), pct(line[3]!), pct(line[4]!)];
    assert.equal(rate, passed / 20);
    assert.ok(low < rate && rate < high, `${low} < ${rate} < ${high}`);
    const reached = Object.fromEntries([[line[6], Number(line[5])], [line[8], Number(line[7])]]);
    assert.deepEqual(reached, { answered: passed, escalated: 20 - passed });
    assert.match(r.stdout, /^ PASS random\.eval\.ts > the ticket is read: 20\/20 passed \(100%, 83\.\d+%–100%\)$/m);
    assert.match(r.stdout, /^ PASS scripted\.test\.ts > scripted\.test\.ts: 1\/1 passed .* — deterministic \(no live model call\): ran once$/m);
    assert.equal(r.stdout.match(/scripted\.test\.ts \(.*\) · run \d+\/20/g)?.length, 1, "the scripted file ran once");
    assert.equal(r.stdout.match(/random\.eval\.ts \(.*\) · run \d+\/20/g)?.length, 20);
    assert.match(r.stdout, /^2 passed, 1 flaky, 0 failed \(tests over up to 20 runs each\)$/m);
  });

  it("--pass-rate decides the exit code per test; --json numbers every event's run and ends with a repeat line per test", () => {
    const lenient = runCli(["--repeat", "20", "--pass-rate", "0.05", "--json", "random.eval.ts"], dir, cache());
    assert.equal(lenient.status, 0, lenient.stderr);
    const lines = lenient.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; run?: number });
    const starts = lines.filter((e) => e.type === "start");
    assert.deepEqual(starts.map((e) => e.run).sort((a, b) => a! - b!), Array.from({ length: 20 }, (_, i) => i + 1));
    const summaries = lines.filter((e) => e.type === "repeat") as unknown as RepeatSummary[];
    assert.deepEqual(summaries.map((s) => [s.test, s.runs]), [["a question is answered", 20], ["the ticket is read", 20]]);
    const flaky = summaries[0]!;
    assert.equal(flaky.status, "flaky");
    assert.ok(flaky.interval[0] <= flaky.passRate && flaky.passRate <= flaky.interval[1]);
    assert.equal(flaky.ok, true);
    assert.equal(flaky.ends.reduce((n, e) => n + e.count, 0), 20);
    const strict = runCli(["--repeat", "20", "--pass-rate", "0.99", "random.eval.ts"], dir, cache());
    assert.equal(strict.status, 1, strict.stdout);
    assert.match(strict.stdout, /FLAKY random\.eval\.ts > a question is answered: .* — under --pass-rate$/m);
  });

  it("Ctrl+C during --repeat: the running file is cancelled and no further repetition starts", async () => {
    // an executor (possibly live, so the file is repeated) that takes 3 s
    writeFileSync(join(dir, "slow.test.ts"), `import { runAgent } from "@statelyai/agent";\nimport { machine } from "./support-triage";\nawait runAgent(machine, { input: { ticket: "t" }, executors: { decide: () => new Promise((r) => setTimeout(() => r({ event: { type: "ESCALATE" } }), 3000)) } });\n`);
    const child = spawn(process.execPath, [cliPath(), "run", "--repeat", "10", "--jobs", "1", "slow.test.ts"], { cwd: dir, env: { ...process.env, AGENT_LENS_CACHE_DIR: cache(), NO_COLOR: "1" } });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    // the first run's child is up once its bundle is built: then interrupt
    await new Promise((r) => setTimeout(r, 2000));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    assert.equal(code, 1, stdout);
    assert.deepEqual(stdout.match(/· run \d+\/10/g), ["· run 1/10"], stdout);
    assert.match(stdout, /CANCELLED {2}slow\.test\.ts/);
  });

  it("bad values exit 2", () => {
    for (const args of [["--repeat", "0"], ["--repeat", "2.5"], ["--repeat", "2", "--pass-rate", "1.5"], ["--pass-rate", "0.5"]]) {
      assert.equal(runCli(args, dir, cache()).status, 2, args.join(" "));
    }
  });
});
