// "Run ×N" without VS Code: real runs of an eval whose decision executor answers differently from run to run
// (a counter file the runs share, so the suite is deterministic) add up to a flaky test with its pass rate,
// interval and ends, a steady test that passed every run, and a file that made no live model call needing one
// run only.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { StaticTest } from "@agent-lens/protocol";
import { createWorkspace } from "../../server/src/analysis";
import { needsOneRun, parseRepeatCount, repeatOutcomes, repeatRunOf } from "../../client/src/testing/repeats";
import { flattenTests } from "../../client/src/testing/test-model";
import { runCollect, suiteCache } from "../harness/support";
import { EXAMPLES } from "./support/examples";

const SOMETIMES = `import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { runAgent } from "@statelyai/agent";
import { machine } from "./support-triage";

// Every third run escalates: the executor's answer changes from run to run, as a live model's may.
const n = Number(readFileSync(process.env.COUNTER_FILE!, "utf8"));
writeFileSync(process.env.COUNTER_FILE!, String(n + 1));

test("a how-to question is answered", async () => {
  const result = await runAgent(machine, {
    input: { ticket: "How do I export invoices?" },
    executors: { decide: async () => ({ event: { type: n % 3 === 0 ? "ESCALATE" : "ANSWER" } }), generateText: async () => ({ result: "Use Export." }) },
  });
  assert.equal(result.status === "done" ? result.output.route : result.status, "answer");
});

test("steady", () => assert.ok(true));
`;

const SCRIPTED = `import { test } from "node:test";
import assert from "node:assert/strict";
import { simulateAgent } from "@statelyai/agent/testing";
import { machine } from "./support-triage";

test("escalates when told to", async () => {
  const run = await simulateAgent(machine, { input: { ticket: "down" }, script: { decisions: { triage: [{ type: "ESCALATE" }] } } });
  assert.equal(run.status, "done");
});
`;

describe("client: Run ×N", function () {
  this.timeout(180_000);
  const cache = suiteCache();
  let dir = "";
  const staticTests = (file: string): StaticTest[] => createWorkspace({ roots: [dir] }).analyze(file).tests;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-lens-repeat-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "repeat-test", type: "module" }));
    copyFileSync(join(EXAMPLES, "stately/support-triage.ts"), join(dir, "support-triage.ts"));
    writeFileSync(join(dir, "sometimes.test.ts"), SOMETIMES);
    writeFileSync(join(dir, "scripted.test.ts"), SCRIPTED);
    writeFileSync(join(dir, "counter"), "0");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("six runs of a test that escalates every third run: flaky, 4/6 with its interval and where the runs ended; the steady one passed", async () => {
    const file = join(dir, "sometimes.test.ts");
    const runs = [];
    for (let i = 0; i < 6; i++) runs.push(repeatRunOf(file, (await runCollect({ file, workspace: dir, cacheDir: cache(), runtime: "bundled", env: { COUNTER_FILE: join(dir, "counter") } })).events));
    assert.equal(needsOneRun(runs[0]!), false, "its executor may be a live model");
    const fileId = pathToFileURL(file).href;
    const tests = flattenTests(fileId, staticTests(file));
    const outcomes = repeatOutcomes(fileId, file, tests, runs);
    assert.deepEqual(outcomes.map((o) => [o.id, o.status, o.flaky]), [[tests[0]!.id, "failed", true], [tests[1]!.id, "passed", false]]);
    assert.match(outcomes[0]!.text, /^flaky · 4\/6 passed \(66\.7%, 95% interval \d+(\.\d)?%–\d+(\.\d)?%\) · 4\/6 reached answered, 2\/6 reached escalated$/);
    assert.match(outcomes[0]!.failure ?? "", /'escalate' !== 'answer'|escalate/);
    assert.equal(outcomes[1]!.text, "6/6 passed (100%, 95% interval 61%–100%)");
  });

  it("a file whose first run made no live model call needs one run: its tests say so", async () => {
    const file = join(dir, "scripted.test.ts");
    const first = repeatRunOf(file, (await runCollect({ file, workspace: dir, cacheDir: cache(), runtime: "bundled" })).events);
    assert.equal(needsOneRun(first), true);
    const fileId = pathToFileURL(file).href;
    const outcomes = repeatOutcomes(fileId, file, flattenTests(fileId, staticTests(file)), [first]);
    assert.deepEqual(outcomes.map((o) => [o.status, o.flaky, o.text]), [["passed", false, "passed · deterministic (no live model call): ran once"]]);
  });

  it("N is a whole number from 1 to 1000", () => {
    assert.deepEqual(["10", " 3 ", "0", "1001", "2.5", "ten"].map(parseRepeatCount), [10, 3, "a whole number from 1 to 1000", "a whole number from 1 to 1000", "a whole number from 1 to 1000", "a whole number from 1 to 1000"]);
  });
});
