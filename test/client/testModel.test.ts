import assert from "node:assert/strict";
import type { StaticTest } from "../../server/src/analysis/api";
import type { HarnessEvent } from "@agent-lens/protocol";
import { flattenTests, matchTest, outcomesOf, testId } from "../../client/src/testing/test-model";

const r = (line: number) => ({ start: 0, end: 0, startLine: line, startColumn: 0, endLine: line + 3, endColumn: 2 });
const FILE = "file:///w/email.test.ts";
const tree: StaticTest[] = [
  { kind: "suite", name: "email", file: "/w/email.test.ts", range: r(3), children: [
    { kind: "test", name: "scores the draft", file: "/w/email.test.ts", range: r(4) },
    { kind: "test", name: "drafts", file: "/w/email.test.ts", range: r(9) },
  ] },
  { kind: "test", name: "top level", file: "/w/email.test.ts", range: r(20) },
];
const end = (status: "passed" | "failed" | "timeout" | "crashed" | "cancelled"): HarnessEvent => ({ type: "end", file: "/w/email.test.ts", status, durationMs: 50, summary: { passed: 0, failed: 0, skipped: 0 } });

describe("client: Test Explorer model", () => {
  const flat = flattenTests(FILE, tree);

  it("gives every suite and test a stable id below its file, parents first", () => {
    assert.deepEqual(flat.map((t) => t.id), [
      testId(FILE, ["email"]), testId(FILE, ["email", "scores the draft"]), testId(FILE, ["email", "drafts"]), testId(FILE, ["top level"]),
    ]);
    assert.equal(flat[1].parentId, flat[0].id);
    assert.equal(flat[3].parentId, FILE);
  });

  it("matches harness test names by path, by 'suite > test' name, by line, by unique leaf name", () => {
    assert.equal(matchTest(flat, "x", undefined, ["email", "drafts"])?.id, flat[2].id);
    assert.equal(matchTest(flat, "email > scores the draft")?.id, flat[1].id);
    assert.equal(matchTest(flat, "renamed?", 21)?.id, flat[3].id);
    assert.equal(matchTest(flat, "drafts")?.id, flat[2].id);
    assert.equal(matchTest(flat, "nothing like it"), undefined);
  });

  it("maps a node:test run: passed / failed with the failure, per test", () => {
    const failure = { message: "Expected values to be strictly deep-equal", expected: 5, actual: 4, location: { file: "/w/email.test.ts", line: 6, column: 5 } };
    const events: HarnessEvent[] = [
      { type: "test-end", test: "email > scores the draft", path: ["email", "scores the draft"], status: "failed", durationMs: 4, failure },
      { type: "test-end", test: "email > drafts", path: ["email", "drafts"], status: "passed", durationMs: 2 },
      { type: "test-end", test: "top level", status: "skipped", durationMs: 0 },
      end("failed"),
    ];
    const out = new Map(outcomesOf(FILE, flat, events).map((o) => [o.id, o]));
    assert.equal(out.get(flat[1].id)?.status, "failed");
    assert.deepEqual(out.get(flat[1].id)?.failure, failure);
    assert.equal(out.get(flat[2].id)?.status, "passed");
    assert.equal(out.get(flat[3].id)?.status, "skipped");
    // The suite and the file have no result of their own (no "Failed" without a message): VS Code derives them.
    assert.equal(out.get(flat[0].id), undefined);
    assert.equal(out.get(FILE), undefined);
  });

  it("a plain script is one test: the file passes or fails with the run, failing with its failure", () => {
    const ok = outcomesOf(FILE, [], [end("passed")]);
    assert.deepEqual(ok.map((o) => [o.id, o.status]), [[FILE, "passed"]]);
    const failure = { message: "boom", location: { file: "/w/email.test.ts", line: 2, column: 1 } };
    const bad = outcomesOf(FILE, [], [{ type: "fail", failure }, end("failed")]);
    assert.deepEqual(bad.map((o) => [o.id, o.status, o.failure?.message]), [[FILE, "failed", "boom"]]);
  });

  it("a failure outside any test (a crash before the tests ran) fails the file item with it", () => {
    const failure = { message: "Cannot find module './nope'", code: "missing-import" };
    const out = outcomesOf(FILE, flat, [{ type: "fail", failure }, end("failed")]);
    assert.deepEqual(out.map((o) => [o.id, o.status, o.failure?.code]), [[FILE, "failed", "missing-import"]]);
  });

  it("a file that timed out errors with a message about the time limit", () => {
    const out = outcomesOf(FILE, flat, [end("timeout")]);
    const file = out.find((o) => o.id === FILE);
    assert.equal(file?.status, "errored");
    assert.match(file?.failure?.message ?? "", /time limit/);
  });
});
