// matchesTrajectory: state paths and event logs, strings as event types or dotted state paths, object
// expectations by their listed keys, { exact }, the counts and firstMiss, and every wrong argument a
// coded AgentError (an empty expectation too: the seed wants it to fail loudly).
import assert from "node:assert/strict";
import { AgentError, runAgent } from "../../../runtime/src/stately/index";
import { AgentUnknownStateError, createScriptedExecutors, matchesTrajectory, runSeam, simulateAgent } from "../../../runtime/src/stately/testing";
import { chatMachine, reviewMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;

describe("matchesTrajectory", () => {
  it("an ordered subsequence: gaps allowed, order and repetition count; the miss says where the search began", () => {
    const path = ["drafting", "reviewing", "drafting", "reviewing", "approved"];
    assert.deepEqual(matchesTrajectory(path, ["drafting", "drafting", "approved"]), { matched: true, matchedCount: 3, expectedCount: 3, score: 1 });
    const miss = matchesTrajectory(path, ["reviewing", "approved", "drafting"]);
    assert.deepEqual(miss, { matched: false, matchedCount: 2, expectedCount: 3, score: 2 / 3, firstMiss: { index: 2, expected: "drafting", searchedFrom: 5 } });
    // the count stops at the first miss: a later item that would match does not count
    assert.equal(matchesTrajectory(path, ["nowhere", "approved"]).matchedCount, 0);
  });

  it("a string is a dotted path from the root: a leaf or an ancestor of one, never a bare inner key", () => {
    const actual = [{ review: { pane: "editing" } }, "review.pane.saving", { left: "a", right: "b" }];
    assert.equal(matchesTrajectory(actual, ["review.pane.editing", "review.pane.saving"]).matched, true);
    assert.equal(matchesTrajectory(actual, ["review", "review.pane"]).matched, true);
    assert.equal(matchesTrajectory(actual, ["pane"]).matched, false);
    assert.equal(matchesTrajectory(actual, ["right.b"]).matched, true);
    assert.equal(matchesTrajectory([{ review: "editing" }], [{ review: "editing" }]).matched, true);
    assert.equal(matchesTrajectory([{ left: "a", right: "b" }], [{ left: "a" }]).matched, false); // state values compare whole
  });

  it("snapshots count by their value; log entries and events by type, payload keys opt-in", () => {
    const snapshots = [{ value: "drafting", status: "active" }, { value: { review: "x" }, status: "active" }];
    assert.equal(matchesTrajectory(snapshots, ["drafting", "review.x"]).matched, true);
    const log = [{ schemaVersion: 1, event: { type: "@agent.init" } }, { schemaVersion: 1, event: { type: "MORE", details: "team", at: 7 } }];
    assert.equal(matchesTrajectory(log, ["MORE"]).matched, true);
    assert.equal(matchesTrajectory(log, [{ type: "MORE", details: "team" }]).matched, true);
    assert.equal(matchesTrajectory(log, [{ type: "MORE", details: "other" }]).matched, false);
    assert.equal(matchesTrajectory([{ type: "SEND" }], [{ review: "x" }]).matched, false);
    assert.equal(matchesTrajectory([{ review: "x" }], [{ type: "SEND" }]).matched, false);
    assert.equal(matchesTrajectory([{ type: "review" }], ["review"]).matched, true); // a string names an event type in an event log
  });

  it("reads simulateAgent's trail and getStatePath's dotted strings (parallel regions joined by ',')", async () => {
    const sim = await simulateAgent(reviewMachine(), { script: { text: { draft: ["v1", "v2"] }, decisions: { review: [{ type: "REWRITE" }, { type: "APPROVE" }] } } });
    assert.equal(matchesTrajectory(sim.trail, ["drafting", "reviewing", "drafting", "approved"]).matched, true);
    assert.equal(matchesTrajectory(sim.trail, ["approved", "drafting"]).matched, false);
    assert.equal(matchesTrajectory(["left.a,right.b"], ["right.b", "right"], { exact: false }).matchedCount, 1);
    assert.equal(matchesTrajectory(["left.a,right.b", "left.a,right.c"], ["right.b", "right.c"]).matched, true);
  });

  it("exact: same items in the same positions; score over the longer side", () => {
    assert.equal(matchesTrajectory(["a", "b"], ["a", "b"], { exact: true }).matched, true);
    const longer = matchesTrajectory(["a", "b", "c"], ["a", "b"], { exact: true });
    assert.deepEqual(longer, { matched: false, matchedCount: 2, expectedCount: 2, score: 2 / 3 });
    assert.deepEqual(matchesTrajectory(["a", "x", "c"], ["a", "b", "c"], { exact: true }).firstMiss, { index: 1, expected: "b", searchedFrom: 1 });
  });

  it("results are JSON-safe", () => {
    const result = matchesTrajectory(["a"], [{ type: "B", payload: { n: 1 } }]);
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
  });

  it("an empty expectation fails loudly with empty-trajectory (the seed's rule, not upstream's match)", () => {
    assert.throws(() => matchesTrajectory(["a"], []), isCode("empty-trajectory"));
    assert.throws(() => matchesTrajectory([], [], { exact: true }), isCode("empty-trajectory"));
  });

  it("every wrong argument is a coded AgentError, never a TypeError", () => {
    assert.throws(() => matchesTrajectory("drafting" as never, ["drafting"]), isCode("invalid-trajectory"));
    assert.throws(() => matchesTrajectory(["a"], "a" as never), isCode("invalid-trajectory"));
    for (const bad of [3, null, undefined, true, ["a"], { type: 4 }, { review: 3 }, { value: 1, status: "active" }, () => "a"]) {
      assert.throws(() => matchesTrajectory(["a"], [bad as never]), isCode("invalid-trajectory"), `expected item ${String(bad)}`);
      assert.throws(() => matchesTrajectory([bad], ["a"]), isCode("invalid-trajectory"), `actual item ${String(bad)}`);
    }
    assert.throws(() => matchesTrajectory(["a"], ["a"], 3 as never), isCode("invalid-options"));
    assert.throws(() => matchesTrajectory(["a"], ["a"], { exact: "yes" as never }), isCode("invalid-options"));
    assert.throws(() => matchesTrajectory(["a"], ["a"], { machine: {} as never }), isCode("invalid-options"));
  });

  it("{ machine } checks expected states against the machine (dotted from the root); events pass", () => {
    const machine = reviewMachine();
    assert.equal(matchesTrajectory(["drafting"], ["drafting", { type: "APPROVE" }], { machine }).matched, false);
    assert.throws(() => matchesTrajectory(["drafting"], ["approve"], { machine }), (error: unknown) => error instanceof AgentUnknownStateError && error.code === "unknown-state" && error.target === "approve");
    assert.throws(() => matchesTrajectory(["drafting"], [{ nope: "x" }], { machine }), isCode("unknown-state"));
  });

  it("scores runSeam slices and runAgent's log and onTransition path as they come", async () => {
    let decisions = 0;
    const run = await runSeam(reviewMachine(), {
      scripts: { draft: ["v1", "v2"] },
      seam: { request: "draft" },
      executors: { decide: async () => ({ event: { type: decisions++ === 0 ? "REWRITE" : "APPROVE" } }) },
    });
    assert.equal(matchesTrajectory(run.after.statePath, ["reviewing", "drafting", "approved"]).matched, true);
    assert.equal(matchesTrajectory(run.after.events, ["REWRITE", "APPROVE"]).matched, true);
    assert.equal(matchesTrajectory(run.result.events, ["@agent.init", "REWRITE", "APPROVE"], { exact: false }).matched, true);
    const path: unknown[] = [];
    const result = await runAgent(seedMachine(), {
      input: { topic: "t" },
      executors: createScriptedExecutors({ text: { draftEmail: "d", scoreDraft: { score: 1 } } }),
      onTransition: (snapshot) => path.push(snapshot.value),
    });
    assert.equal(matchesTrajectory(path, ["drafting", "scoring", "done"], { exact: true }).matched, true);
    assert.equal(matchesTrajectory(result.events, ["done"]).matched, false);
    assert.equal(matchesTrajectory((await runAgent(chatMachine(), { executors: createScriptedExecutors({ text: { reply: "r" } }) })).events, [{ type: "@agent.init" }]).matched, true);
  });
});
