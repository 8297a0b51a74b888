// "Create an eval that reaches it", without VS Code: the probe runs through the real harness on a copy of the
// examples (canReach's path, scripted for simulateAgent and checked), the eval written from its answer runs
// and passes, and the coverage of its machine rises; a state canReach cannot reach gets no eval, with why.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CoverageModel } from "@agent-lens/protocol";
import { buildCoverageModel } from "../../server/src/cli/coverage/static-model";
import { harnessRunner } from "../../client/src/run/harness";
import { coverageReportOf, runResultsOf } from "../../client/src/testing/coverage-store";
import { evalFileFor, evalSuffixOf, importPath, reachingEvalSource, runProbe, type ProbeAnswer, type ReachRequest } from "../../client/src/testing/reach-eval";
import { runCollect, suiteCache } from "../harness/support";
import { EXAMPLES } from "./support/examples";

describe("client: Create an eval that reaches it", function () {
  this.timeout(180_000);
  const cache = suiteCache();
  let ws = "";
  const at = (rel: string) => join(ws, rel);
  const probe = (req: ReachRequest): Promise<ProbeAnswer> => {
    return runProbe(harnessRunner(), req, { cwd: ws, timeoutMs: 60_000, runtime: "bundled", signal: new AbortController().signal });
  };
  before(() => {
    ws = mkdtempSync(join(tmpdir(), "agent-lens-reach-"));
    cpSync(EXAMPLES, ws, { recursive: true });
    process.env.AGENT_LENS_CACHE_DIR = cache();
  });
  after(() => {
    delete process.env.AGENT_LENS_CACHE_DIR;
    rmSync(ws, { recursive: true, force: true });
  });

  it("names the new eval after an existing one and imports the machine relatively", () => {
    assert.equal(evalSuffixOf("/w/a/mistakes.test.ts"), ".test.ts");
    assert.equal(evalSuffixOf("/w/a/support.eval.mts"), ".eval.mts");
    assert.equal(importPath("/w/a", "/w/a/mistakes.ts"), "./mistakes");
    assert.equal(importPath("/w/evals", "/w/src/agents/m.ts"), "../src/agents/m");
    const taken = new Set(["/w/a/orphanMachine-reaches-done.test.ts"]);
    assert.equal(evalFileFor({ machineFile: "/w/a/m.ts", exportName: "orphanMachine", state: "done" }, { folder: "/w/a", suffix: ".test.ts" }, (f) => taken.has(f)), "/w/a/orphanMachine-reaches-done-2.test.ts");
    assert.equal(evalFileFor({ machineFile: "/w/a/m.ts", exportName: "m", state: "review.editing" }, { folder: "/w/a", suffix: ".eval.ts" }, () => false), "/w/a/m-reaches-review-editing.eval.ts");
  });

  it("a decision's event and an input from the machine's schema: support-triage's escalated and answered", async () => {
    const escalated = await probe({ machineFile: at("stately/support-triage.ts"), exportName: "machine", state: "escalated" });
    assert.deepEqual(escalated, { ok: true, input: { ticket: "example" }, script: { decisions: { triage: [{ type: "ESCALATE" }] } }, path: ["triage", "escalated"] });
    const answered = await probe({ machineFile: at("stately/support-triage.ts"), exportName: "machine", state: "answered" });
    assert.deepEqual(answered, { ok: true, input: { ticket: "example" }, script: { text: { draftReply: ["Example answer for draftReply."] }, decisions: { triage: [{ type: "ANSWER" }] } }, path: ["triage", "answering", "answered"] });
  });

  it("a state canReach finds no path to gets no eval, and says why", async () => {
    const review = await probe({ machineFile: at("stately/mistakes.ts"), exportName: "typoMachine", state: "review" });
    assert.equal(review.ok, false);
    assert.match((review as { reason: string }).reason, /canReach found no path from the initial state to "review"/);
    const missing = await probe({ machineFile: at("stately/mistakes.ts"), exportName: "noSuchMachine", state: "done" });
    assert.equal(missing.ok, false);
  });

  it("the eval written from the probe's answer passes, and its machine's coverage rises from 0 to every state", async () => {
    const req = { machineFile: at("stately/mistakes.ts"), exportName: "orphanMachine", state: "done" };
    const answer = await probe(req);
    assert.ok(answer.ok, JSON.stringify(answer));
    const file = evalFileFor(req, { folder: at("stately"), suffix: ".test.ts" }, existsSync);
    assert.equal(file, at("stately/orphanMachine-reaches-done.test.ts"));
    const source = reachingEvalSource(req, answer, file);
    assert.match(source, /import \{ orphanMachine \} from "\.\/mistakes";/);
    assert.match(source, /"summarize": \[\s*"Example answer for summarize\."\s*\]/);
    writeFileSync(file, source);
    const run = await runCollect({ file, workspace: ws, cacheDir: cache(), runtime: "bundled" });
    assert.deepEqual(run.events.flatMap((e) => (e.type === "test-end" ? [`${e.test}: ${e.status}`] : [])), ["orphanMachine reaches done: passed"]);
    assert.equal(run.result.status, "passed");
    const model = JSON.parse(JSON.stringify(buildCoverageModel([ws], [file]).model)) as CoverageModel;
    const orphan = coverageReportOf(model, [runResultsOf(file, run.events)]).agents.find((a) => a.name === "orphanMachine")!;
    assert.deepEqual(orphan.counts.states, { covered: 2, total: 2 });
    assert.deepEqual(orphan.counts.transitions, { covered: 1, total: 1 });
  });
});
