// The truthful status of a run: the subject's own verdict apart from the file's ("seam ✓ · file ✗"), an
// invalid transition or thrown executor as failed, a generated program's traces mapped back to the lens.
import assert from "node:assert/strict";
import type { HarnessEvent, SeamReportPayload } from "@agent-lens/protocol";
import { mapGeneratedEvents } from "../../client/src/panel/generated";
import { buildResultView } from "../../client/src/panel/view-model";
import { failuresOf, subjectStatus } from "../../client/src/panel/verdict";
import { flattenTests, outcomesOf } from "../../client/src/testing/test-model";
import { AGENT, EVAL, seamPayload } from "./samples";

const start: HarnessEvent = { type: "start", file: EVAL, time: "2026-12-02T00:00:00.000Z", runtime: {} };
const end = (status: "passed" | "failed"): HarnessEvent => ({ type: "end", file: EVAL, status, durationMs: 5, summary: { passed: 0, failed: status === "failed" ? 1 : 0, skipped: 0 } });
const seamAt = (line: number, test?: string, data: SeamReportPayload = seamPayload): HarnessEvent => ({ type: "result", kind: "seam", test, callSite: { file: EVAL, line, column: 13 }, data });
const assertionAt = (line: number, test?: string): HarnessEvent => ({ type: "fail", test, failure: { message: "Expected values to be strictly deep-equal", code: "ERR_ASSERTION", location: { file: EVAL, line, column: 1 } } });
const invalid: SeamReportPayload = { ...seamPayload, status: "error", output: undefined, error: { message: "Invalid transition for '(machine).summarizing': Child state 'reveiw' does not exist on '(machine)'" } };

describe("client: a run's own verdict", () => {
  it("node:test: another test failing makes the file failed, not the seam (seam ✓ · file ✗)", () => {
    const events: HarnessEvent[] = [
      start,
      { type: "test-start", test: "the seam", location: { file: EVAL, line: 10, column: 1 } },
      seamAt(12, "the seam"),
      { type: "test-end", test: "the seam", status: "passed", durationMs: 1 },
      { type: "test-end", test: "another", status: "failed", durationMs: 1, failure: { message: "boom", location: { file: EVAL, line: 30, column: 3 } } },
      end("failed"),
    ];
    const view = buildResultView({ runId: 1, title: "Run seam · scoreDraft", file: EVAL, focus: { file: EVAL, line: 12 }, subject: "seam", events, graphs: [] });
    assert.deepEqual(view.verdict.subject, { label: "seam", status: "passed" });
    assert.equal(view.status, "passed");
    assert.equal(view.fileStatus, "failed");
    assert.equal(view.verdict.text, "seam ✓ · file ✗");
  });

  it("node:test: a failed assertion in the seam's own test fails the seam", () => {
    const events: HarnessEvent[] = [start, seamAt(12, "the seam"), { type: "test-end", test: "the seam", status: "failed", durationMs: 1, failure: { message: "score", location: { file: EVAL, line: 13, column: 3 } } }, end("failed")];
    assert.equal(buildResultView({ runId: 2, title: "t", file: EVAL, focus: { file: EVAL, line: 12 }, subject: "seam", events, graphs: [] }).status, "failed");
  });

  it("top-level code: a failure after the call and before the next call is the call's; a later one is the file's", () => {
    const calls = [seamAt(12, "email.eval.ts"), seamAt(20, "email.eval.ts")];
    const input = (failureLine: number) => ({ events: [start, ...calls, assertionAt(failureLine, "email.eval.ts"), end("failed")], results: [calls[0]] as Array<Extract<HarnessEvent, { type: "result" }>>, focus: { file: EVAL, line: 12 }, generated: false, fellBack: false });
    assert.equal(subjectStatus(input(14)), "failed");
    assert.equal(failuresOf(input(14)).length, 1);
    assert.equal(subjectStatus(input(21)), "passed");
    assert.equal(subjectStatus(input(11)), "passed", "a failure before the call is not about it");
  });

  it("a seam that ended in error (an invalid transition) is failed even though the file ran to its end", () => {
    const events: HarnessEvent[] = [start, seamAt(12, undefined, invalid), end("passed")];
    const view = buildResultView({ runId: 3, title: "t", file: EVAL, focus: { file: EVAL, line: 12 }, subject: "seam", events, graphs: [] });
    assert.equal(view.status, "failed");
    assert.equal(view.fileStatus, "passed");
    assert.equal(view.errors.length, 1, "the error once");
    assert.equal(view.verdict.text, "seam ✗ · file ✓ (1 result ended in error)", "the file passed while a result ended in error: said");
  });

  it("without a subject the file's status leads, and results that ended in error are counted", () => {
    const events: HarnessEvent[] = [start, { type: "result", kind: "agent", data: { status: "error", error: { message: "executor threw" }, path: [], events: [] } }, end("passed")];
    const view = buildResultView({ runId: 4, title: "Eval · x", file: EVAL, events, graphs: [] });
    assert.equal(view.status, "passed");
    assert.equal(view.verdict.subject, undefined);
    assert.equal(view.verdict.erroredResults, 1);
    assert.equal(view.verdict.text, "passed · 1 result ended in error");
  });

  it("a node:test test that passed while its result ended in error says so in the Tests section and the Testing view", () => {
    const events: HarnessEvent[] = [
      start,
      // As node:test files report: the result first, without its test's name; the test's start and end after it.
      { type: "result", kind: "agent", callSite: { file: EVAL, line: 11, column: 3 }, data: { status: "error", error: { message: "executor threw" }, path: [], events: [] } },
      { type: "test-start", test: "runs the machine", location: { file: EVAL, line: 10, column: 1 } },
      { type: "test-end", test: "runs the machine", status: "passed", durationMs: 1, location: { file: EVAL, line: 10, column: 1 } },
      { type: "result", kind: "agent", callSite: { file: EVAL, line: 21, column: 3 }, data: { status: "done", output: 1, path: [], events: [] } },
      { type: "test-start", test: "another", location: { file: EVAL, line: 20, column: 1 } },
      { type: "test-end", test: "another", status: "passed", durationMs: 1, location: { file: EVAL, line: 20, column: 1 } },
      end("passed"),
    ];
    const view = buildResultView({ runId: 7, title: "Eval · x", file: EVAL, events, graphs: [] });
    assert.deepEqual(view.tests.map((t) => [t.name, t.status, t.erroredResults]), [["runs the machine", "passed", 1], ["another", "passed", undefined]]);
    const fileId = "file:///w/evals/email.eval.ts";
    const tests = flattenTests(fileId, [
      { kind: "test", name: "runs the machine", file: EVAL, range: { start: 0, end: 0, startLine: 9, startColumn: 0, endLine: 9, endColumn: 1 } },
      { kind: "test", name: "another", file: EVAL, range: { start: 0, end: 0, startLine: 19, startColumn: 0, endLine: 19, endColumn: 1 } },
    ]);
    const outcomes = outcomesOf(fileId, tests, events);
    assert.deepEqual(outcomes.map((o) => [o.id.split("::")[1], o.status, o.erroredResults]), [["runs the machine", "passed", 1], ["another", "passed", undefined]]);
  });

  it("no result from the lens's line: the file's status, and the note says so", () => {
    const events: HarnessEvent[] = [start, seamAt(30), end("failed")];
    const view = buildResultView({ runId: 5, title: "t", file: EVAL, focus: { file: EVAL, line: 12 }, subject: "seam", events, graphs: [] });
    assert.equal(view.status, "failed");
    assert.match(view.note ?? "", /line 12/);
  });

  it("a generated program: its locations become the lens's place, its name a label, its folder nowhere", () => {
    const entry = "/tmp/agent-lens-run-Ab12/seam-typoMachine-summarize.ts";
    const origin = { file: AGENT, line: 9, column: 5 };
    const events: HarnessEvent[] = [
      { ...start, file: entry },
      { type: "test-start", test: "seam-typoMachine-summarize.ts", location: { file: entry, line: 1, column: 1 } },
      { type: "result", kind: "seam", test: "seam-typoMachine-summarize.ts", callSite: { file: entry, line: 7, column: 7 }, data: invalid },
      { type: "console", stream: "stderr", text: `at ${entry}:7:7\nat file://${entry}:7\n` },
      { type: "fail", failure: { message: `failed in seam-typoMachine-summarize.ts:7`, stack: `Error\n    at ${entry}:7:7`, location: { file: entry, line: 7, column: 7 } } },
      { type: "end", file: entry, status: "failed", durationMs: 9, summary: { passed: 0, failed: 1, skipped: 0 } },
    ];
    const mapped = mapGeneratedEvents(events, { entry, origin, label: "keyless seam run of summarize" });
    const text = JSON.stringify(mapped);
    assert.ok(!text.includes("seam-typoMachine-summarize") && !text.includes("/tmp/agent-lens-run-"), text);
    const result = mapped.find((e) => e.type === "result");
    assert.deepEqual(result?.type === "result" && result.callSite, origin);
    assert.match(text, /keyless seam run of summarize/);
    assert.ok(text.includes(`${AGENT}:9`), "a position in the generated file reads as the lens's place");
    const view = buildResultView({ runId: 6, title: "Run seam · summarize", file: AGENT, subject: "seam", generated: { entry, origin, label: "keyless seam run of summarize" }, events, graphs: [] });
    assert.equal(view.status, "failed");
    assert.equal(view.generated, true);
    assert.equal(view.line, 9);
  });
});
