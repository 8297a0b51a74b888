// agent-lens diff A B: two saved `run --json` outputs of an eval whose scripted answers were changed name
// the first diverging call and state per test (real CLI processes); the divergence module on reports the
// runtime made, where regions of a parallel state moved in another order (no divergence) or elsewhere.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAsyncLogic, setup } from "xstate";
import type { HarnessEvent } from "@agent-lens/protocol";
import { REPORTER_KEY, type RuntimeReport } from "../../runtime/src/shared/report";
import { simulateAgent } from "../../runtime/src/stately/testing";
import { diffRuns, foldParallel } from "../../shared/diff/divergence";
import { cliPath, root, runCli, suiteCache, tempDir } from "../harness/support";
import { spawnSync } from "node:child_process";

const examples = join(root, "examples");

function diffCli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [cliPath(), "diff", ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("cli: agent-lens diff", function () {
  this.timeout(180_000);
  const cache = suiteCache();
  let dir: string;
  before(() => {
    dir = tempDir("diff");
    for (const f of ["package.json", "tsconfig.json", "stately/support-triage.ts", "stately/support-triage.eval.ts"]) {
      writeFileSync(join(dir, f.replace("stately/", "")), readFileSync(join(examples, f), "utf8"));
    }
    const save = (name: string) => {
      const r = runCli(["--json", "support-triage.eval.ts"], dir, cache());
      assert.equal(r.status, 0, r.stderr);
      writeFileSync(join(dir, name), r.stdout);
    };
    save("a.jsonl");
    // the outage's scripted decision now answers; the seam's scripted reply is another text
    const evalFile = join(dir, "support-triage.eval.ts");
    const text = readFileSync(evalFile, "utf8");
    const changed = text
      .replace(`decide: async () => ({ event: { type: "ESCALATE" } })`, `decide: async () => ({ event: { type: "ANSWER" } }),\n      generateText: async () => ({ result: "We are on it." })`)
      .replace(`scripts: { draftReply: ["Open Billing, pick the invoices and choose Export CSV."] }`, `scripts: { draftReply: ["Open Billing and export."] }`);
    assert.notEqual(changed, text);
    writeFileSync(evalFile, changed);
    const r = runCli(["--json", "support-triage.eval.ts"], dir, cache());
    writeFileSync(join(dir, "b.jsonl"), r.stdout);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("names the first diverging call and state of each changed test, and exits 1", () => {
    const r = diffCli(["a.jsonl", "b.jsonl"], dir);
    assert.equal(r.status, 1, r.stderr);
    const blocks = r.stdout.trim().split("\n\n");
    assert.equal(blocks.length, 3, r.stdout);
    // the decision: the event it chose, in state triage, and the state the runs then went to
    assert.match(blocks[0]!, /^support-triage\.eval\.ts > an outage is escalated without drafting a reply\n {2}report 1 at support-triage\.eval\.ts:33: event — event 2; then state 2: "escalated" \/ "answering"\n {2}after state: triage\n {2}A: \{"type":"ESCALATE"\}\n {2}B: \{"type":"ANSWER"\}$/);
    // the seam's scripted reply: the call of draftReply's actor, with both outputs; same states
    assert.match(blocks[1]!, /^support-triage\.eval\.ts > the reply seam, with the decision answered by an executor\n {2}report 1 at support-triage\.eval\.ts:47: call — call draftReply \(event 3\)\n {2}after state: answering/);
    assert.match(blocks[1]!, /A: \{"output":\{"result":"Open Billing, pick the invoices and choose Export CSV\."/);
    assert.match(blocks[1]!, /B: \{"output":\{"result":"Open Billing and export\."/);
    assert.equal(blocks[2], "2 tests diverged");
    const json = JSON.parse(diffCli(["--json", "a.jsonl", "b.jsonl"], dir).stdout) as Array<{ test: string; kind: string; state?: string }>;
    assert.deepEqual(json.map((d) => [d.test, d.kind, d.state]), [["an outage is escalated without drafting a reply", "event", "triage"], ["the reply seam, with the decision answered by an executor", "call", "answering"]]);
  });

  it("the same output twice: no divergence, exit 0; a file that is not an output: exit 2", () => {
    const same = diffCli(["a.jsonl", "a.jsonl"], dir);
    assert.equal(same.status, 0);
    assert.equal(same.stdout, "no divergence\n");
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    const bad = diffCli(["a.jsonl", "notes.txt"], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /notes\.txt:1 is not JSON/);
    assert.equal(diffCli(["a.jsonl"], dir).status, 2);
  });
});

describe("divergence: parallel regions compared as sets", () => {
  const g = globalThis as Record<symbol, unknown>;
  const config = {
    id: "both",
    initial: "p",
    states: {
      p: {
        type: "parallel",
        states: {
          a: { initial: "one", states: { one: { on: { A_GO: "two" } }, two: {} } },
          b: { initial: "one", states: { one: { on: { B_GO: "two", B_OFF: "off" } }, two: {}, off: {} } },
        },
      },
    },
  };
  const machine = setup({ actors: { none: createAsyncLogic({ run: async () => 0 }) } }).createMachine(config as never);

  /** The stream of a simulated run, as the CLI would print it for one plain-script test. */
  async function stream(events: string[]): Promise<HarnessEvent[]> {
    const reports: RuntimeReport[] = [];
    g[REPORTER_KEY] = (r: RuntimeReport) => reports.push(r);
    try {
      await simulateAgent(machine as never, { script: { events: events.map((type) => ({ type })) } });
    } finally {
      delete g[REPORTER_KEY];
    }
    const file = "/w/parallel.test.ts";
    return [
      { type: "start", file, time: "", runtime: {} },
      { type: "test-start", test: "t" },
      ...reports.map((r) => ({ type: "result" as const, kind: r.kind, test: "t", data: JSON.parse(JSON.stringify(r.payload)) })),
      { type: "test-end", test: "t", status: "passed", durationMs: 1 },
      { type: "end", file, status: "passed", durationMs: 1, summary: { passed: 1, failed: 0, skipped: 0 } },
    ];
  }

  it("regions moving in another order are no divergence; a region going elsewhere is", async () => {
    const ab = await stream(["A_GO", "B_GO"]);
    const ba = await stream(["B_GO", "A_GO"]);
    assert.deepEqual(diffRuns(ab, ba), []);
    const off = await stream(["A_GO", "B_OFF"]);
    const d = diffRuns(ab, off);
    assert.equal(d.length, 1);
    assert.equal(d[0]!.kind, "event");
    assert.deepEqual([d[0]!.a, d[0]!.b], [{ type: "B_GO" }, { type: "B_OFF" }]);
    assert.match(d[0]!.at, /^event 3; then state 1/);
    assert.equal(d[0]!.state, "p.a.two,p.b.one");
  });

  it("folds a stretch inside parallel regions into the leaves it visited and where it ended", () => {
    assert.deepEqual(foldParallel(["idle", "p.a.one,p.b.one", "p.a.two,p.b.one", "p.a.two,p.b.two", "done"]), [
      "idle", "{p.a.one,p.a.two,p.b.one,p.b.two} → p.a.two,p.b.two", "done",
    ]);
  });
});
