// What the runtime announces to the harness (runtime/src/shared/report.ts): JSON-safe payloads with
// the call site, also when the run fails.
import assert from "node:assert/strict";
import { REPORTER_KEY, type RuntimeReport, type SeamReportPayload } from "../../../runtime/src/shared/report";
import { runAgent } from "../../../runtime/src/stately/index";
import { canReach, matchesTrajectory, runSeam } from "../../../runtime/src/stately/testing";
import { seedMachine } from "./fixtures";

describe("reports to the harness", () => {
  const reports: RuntimeReport[] = [];
  const g = globalThis as Record<symbol, unknown>;
  beforeEach(() => {
    reports.length = 0;
    g[REPORTER_KEY] = (r: RuntimeReport) => reports.push(r);
  });
  afterEach(() => {
    delete g[REPORTER_KEY];
  });

  it("runSeam reports a JSON-safe seam payload with calls, split path and events", async () => {
    await runSeam(seedMachine(), { input: { topic: "t" }, scripts: { draftEmail: ["d"], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });
    assert.equal(reports.length, 1);
    const r = reports[0]!;
    assert.equal(r.kind, "seam");
    assert.match(r.callSite.stack ?? "", /report\.test\.ts/);
    const p = r.payload as SeamReportPayload;
    assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
    assert.equal(p.request, "scoreDraft");
    assert.deepEqual(p.seamOutput, { score: 4 });
    assert.deepEqual(p.calls, [
      { name: "draftEmail", model: "writer", key: "draftEmail", source: "script", seam: false },
      { name: "scoreDraft", model: "judge", key: "scoreDraft", source: "script", seam: true },
    ]);
    assert.equal(p.callsBeforeSeam, 1);
    assert.deepEqual([p.before.statePath, p.after.statePath], [["drafting", "scoring"], ["done"]]);
    assert.deepEqual(p.before.events.map((e) => e.type), ["@xstate.init", "xstate.done.actor"]);
    assert.deepEqual(p.after.events.map((e) => e.type), ["xstate.done.actor"]);
    assert.deepEqual((p.after.events[0]!.data as { output: { result: unknown } }).output.result, { score: 4 });
    assert.equal(p.status, "done");
    assert.deepEqual(p.output, { draft: "d", score: 4 });
  });

  it("a failing runSeam still reports, with the error code and request", async () => {
    await assert.rejects(runSeam(seedMachine(), { input: { topic: "t" }, scripts: { draftEmail: ["d"] }, seam: { request: "draftEmail" } }));
    const p = reports[0]!.payload as SeamReportPayload;
    assert.equal(p.status, "error");
    assert.equal(p.error?.code, "seam-script-exhausted");
    assert.equal(p.error?.request, "scoreDraft");
    // the seam (draftEmail) answered; the run then ran dry in the state it led to
    assert.deepEqual(p.before.statePath, ["drafting"]);
    assert.deepEqual(p.after.statePath, ["scoring"]);
    assert.equal(p.callsBeforeSeam, 0);
  });

  it("runAgent and the verification helpers report their kinds", async () => {
    await runAgent(seedMachine(), { input: { topic: "t" }, executors: { generateText: async () => { throw new Error("down"); } } });
    canReach(seedMachine(), "done", { input: { topic: "t" } });
    matchesTrajectory(["a"], ["a"]);
    assert.deepEqual(reports.map((r) => r.kind), ["agent", "canReach", "trajectory"]);
    assert.equal((reports[0]!.payload as { error: { message: string } }).error.message, "down");
  });
});
