import assert from "node:assert/strict";
import type { HarnessEvent } from "@agent-lens/protocol";
import { buildResultView, keyFromMessage, parseRunKey, selectResults, stepsOfTurn } from "../../client/src/panel/view-model";
import { AGENT, EVAL, flowGraph, machineGraph, seamPayload, seamRun, turnPayload } from "./samples";

describe("client: results view model", () => {
  it("shows only the results of the call the lens sits on", () => {
    const view = buildResultView({ runId: 1, title: "Run seam · scoreDraft", file: EVAL, focus: { file: EVAL, line: 12 }, events: seamRun(12), graphs: [] });
    assert.equal(view.seams.length, 1);
    assert.deepEqual(view.seams[0].seamOutput, { score: 4 });
    assert.deepEqual(view.seams[0].calls.map((c) => c.source), ["script", "script"]);
    assert.equal(view.status, "passed");
    assert.equal(view.durationMs, 321);
    assert.deepEqual(view.runtime, { "@statelyai/agent": "bundled" });
    assert.equal(view.note, undefined);
    assert.deepEqual(view.console, [{ stream: "stdout", text: "ok\n" }]);
  });

  it("falls back to every result of the file, saying so, when none came from the lens's line", () => {
    const { events, note } = selectResults(seamRun(12), { file: EVAL, line: 40 });
    assert.equal(events.length, 2);
    assert.match(note ?? "", /line 40/);
  });

  it("a lens on a test block shows the results produced inside that test", () => {
    const events: HarnessEvent[] = [
      { type: "test-start", test: "scores", location: { file: EVAL, line: 20, column: 1 } },
      { type: "result", kind: "seam", test: "scores", callSite: { file: "/w/helpers.ts", line: 3, column: 1 }, data: seamPayload },
      { type: "result", kind: "seam", test: "other", callSite: { file: "/w/helpers.ts", line: 3, column: 1 }, data: seamPayload },
    ];
    const picked = selectResults(events, { file: EVAL, line: 20 });
    assert.deepEqual(picked.events.map((e) => e.type === "result" && e.test), ["scores"]);
  });

  it("is 'running' until the end event arrives", () => {
    const view = buildResultView({ runId: 2, title: "t", file: EVAL, events: seamRun().slice(0, 2), graphs: [] });
    assert.equal(view.status, "running");
  });

  it("turns a dry script queue into an error that names the key to add", () => {
    const events: HarnessEvent[] = [
      { type: "fail", failure: { message: 'No scripted answer left for request "scoreDraft" (queue "scoreDraft")', code: "seam-script-exhausted", location: { file: EVAL, line: 7, column: 3 } } },
      { type: "end", file: EVAL, status: "failed", durationMs: 10, summary: { passed: 0, failed: 1, skipped: 0 } },
    ];
    const view = buildResultView({ runId: 3, title: "t", file: EVAL, events, graphs: [] });
    assert.equal(view.errors.length, 1);
    assert.equal(view.errors[0].code, "seam-script-exhausted");
    assert.equal(view.errors[0].missingKey, "scoreDraft");
    assert.deepEqual(view.errors[0].location, { file: EVAL, line: 7, column: 3 });
    assert.equal(view.status, "failed");
  });

  it("keeps expected / actual of an assertion as text, and does not repeat a failure reported twice", () => {
    const failure = { message: "Expected values to be strictly deep-equal", code: "ERR_ASSERTION", expected: { score: 5 }, actual: { score: 4 }, operator: "deepStrictEqual" };
    const events: HarnessEvent[] = [
      { type: "test-end", test: "t", status: "failed", durationMs: 3, failure },
      { type: "fail", test: "t", failure },
    ];
    const view = buildResultView({ runId: 4, title: "t", file: EVAL, events, graphs: [] });
    assert.equal(view.errors.length, 1);
    assert.equal(view.errors[0].expected, '{\n  "score": 5\n}');
    assert.equal(view.errors[0].actual, '{\n  "score": 4\n}');
    assert.deepEqual(view.tests.map((t) => [t.name, t.status]), [["t", "failed"]]);
  });

  it("marks the machine path the seam run took and the seam's own state", () => {
    const view = buildResultView({ runId: 5, title: "t", file: AGENT, events: seamRun(12), focus: { file: EVAL, line: 12 }, graphs: [machineGraph] });
    assert.deepEqual(view.diagrams[0].visited, ["m.drafting", "m.scoring", "m.done"]);
    assert.equal(view.diagrams[0].seamNode, "m.scoring");
  });

  it("marks the flow steps a turn touched", () => {
    const events: HarnessEvent[] = [{ type: "result", kind: "turn", callSite: { file: EVAL, line: 9, column: 1 }, data: turnPayload }];
    const view = buildResultView({ runId: 6, title: "t", file: EVAL, events, graphs: [flowGraph] });
    assert.equal(view.turns.length, 1);
    assert.deepEqual(view.diagrams[0].visited, ["triagem:quem"]);
  });

  it("reads run keys and the steps of a turn", () => {
    assert.deepEqual(parseRunKey("retomar#1789812000000:p1:1"), { flowId: "retomar", stepId: "p1", visit: "1" });
    assert.equal(parseRunKey("silence:retomar:s1:1"), undefined);
    assert.deepEqual(stepsOfTurn({ ...turnPayload, outcomes: [] }, "triagem"), ["oi", "quem"]);
    assert.equal(keyFromMessage("queue 'judge' ran dry"), "judge");
  });

  it("an error a run reports and the test's uncaught failure with it (behind the error's name) is one error", () => {
    const message = "runSeam: scripts.draftEmial matches no request name and no model key of this machine (requests: draftEmail, scoreDraft; models: writer, judge).";
    const failure = { message: `AgentError: ${message}`, code: "unknown-script-key", location: { file: EVAL, line: 8, column: 19 } };
    const events: HarnessEvent[] = [
      { type: "test-start", test: "mistakes.test.ts", location: { file: EVAL, line: 1, column: 1 } },
      { type: "result", kind: "seam", test: "mistakes.test.ts", callSite: { file: EVAL, line: 8, column: 19 }, data: { request: "scoreDraft", occurrence: 0, callsBeforeSeam: -1, seamOutput: undefined, calls: [], before: { statePath: [], events: [] }, after: { statePath: [], events: [] }, status: "error", error: { message, code: "unknown-script-key", key: "draftEmial" } } },
      { type: "fail", test: "mistakes.test.ts", failure },
      { type: "test-end", test: "mistakes.test.ts", status: "failed", durationMs: 73, location: { file: EVAL, line: 1, column: 1 }, failure },
      { type: "end", file: EVAL, status: "failed", durationMs: 199, summary: { passed: 0, failed: 1, skipped: 0 } },
    ];
    const view = buildResultView({ runId: 9, title: "t", file: EVAL, events, graphs: [] });
    assert.deepEqual(view.errors.map((e) => [e.code, e.message]), [["unknown-script-key", failure.message]]);
  });
});
