// runSeam beyond the seed examples: wrong inputs, unused scripts, respond / maxTurns, occurrences.
import assert from "node:assert/strict";
import { AgentError } from "../../../runtime/src/stately/index";
import { runSeam } from "../../../runtime/src/stately/testing";
import { chatMachine, reviewMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;
const input = { topic: "t" };

describe("runSeam", () => {
  it("an unknown seam request throws unknown-seam-request before running", async () => {
    let called = false;
    await assert.rejects(
      runSeam(seedMachine(), { input, scripts: { draftEmail: [() => { called = true; return "x"; }] }, seam: { request: "scoreDraf" } }),
      (error: unknown) => isCode("unknown-seam-request")(error) && /draftEmail, scoreDraft/.test((error as Error).message),
    );
    assert.equal(called, false);
  });

  it("a decision's model key is not a scripts key (runSeam routes text only)", async () => {
    await assert.rejects(
      runSeam(reviewMachine(), { scripts: { draft: ["v1"], judge: ["x"] }, seam: { request: "draft" } }),
      isCode("unknown-script-key"),
    );
  });

  it("a decision named as the seam is refused with a clear message", async () => {
    await assert.rejects(runSeam(reviewMachine(), { scripts: {}, seam: { request: "review" } }), isCode("unknown-seam-request"));
  });

  it("a scripts key matching no request and no model throws unknown-script-key", async () => {
    await assert.rejects(
      runSeam(seedMachine(), { input, scripts: { draftEmail: ["d"], scoreDraft: [{ score: 1 }], scorer: [1] }, seam: { request: "scoreDraft" } }),
      (error: unknown) => isCode("unknown-script-key")(error) && (error as AgentError).key === "scorer",
    );
  });

  it("a script for a request that never runs is reported in unusedScripts, not an error", async () => {
    // the draft breaks its schema, so the run ends before scoring
    const run = await runSeam(seedMachine(), { input, scripts: { draftEmail: [42], scoreDraft: [{ score: 1 }] }, seam: { request: "draftEmail" } });
    assert.equal(run.result.status, "error");
    assert.deepEqual(run.unusedScripts, ["scoreDraft"]);
  });

  it("scripts route by model key when no queue has the request's name", async () => {
    const run = await runSeam(seedMachine(), { input, scripts: { writer: ["d"], judge: [{ score: 2 }] }, seam: { request: "scoreDraft" } });
    assert.deepEqual(run.calls.map((c) => c.key), ["writer", "judge"]);
    assert.deepEqual(run.seamOutput, { score: 2 });
  });

  it("an invalid machine input rejects with invalid-machine-input", async () => {
    await assert.rejects(runSeam(seedMachine(), { input: {} as never, scripts: {}, seam: { request: "draftEmail" } }), isCode("invalid-machine-input"));
  });

  it("respond answers idle pauses up to maxTurns; the seam can be a later occurrence", async () => {
    const turns: unknown[] = [];
    const run = await runSeam(chatMachine(), {
      scripts: { reply: ["one", "two", "three"] },
      seam: { request: "reply", occurrence: 1 },
      respond: ({ state, turn }) => {
        turns.push(state);
        return turn < 2 ? { type: "USER", text: `m${turn}` } : { type: "BYE" };
      },
    });
    assert.equal(run.result.status, "done");
    assert.deepEqual(turns, ["waiting", "waiting", "waiting"]);
    assert.equal(run.seamOutput, "two");
    assert.deepEqual(run.calls.map((c) => c.seam), [false, true, false]);
    assert.equal(run.callsBeforeSeam, 1);
    assert.deepEqual(run.before.statePath, ["replying", "waiting", "replying"]);
    assert.deepEqual(run.after.statePath, ["waiting", "replying", "waiting", "bye"]);
    assert.deepEqual(run.after.events.map((e) => e.type), ["xstate.done.actor", "USER", "xstate.done.actor", "BYE"]);
    const capped = await runSeam(chatMachine(), {
      scripts: { reply: ["a"] },
      repeatLast: true,
      seam: { request: "reply" },
      maxTurns: 2,
      respond: () => ({ type: "USER", text: "again" }),
    });
    assert.equal(capped.result.status, "idle");
    assert.equal(capped.calls.length, 3);
  });

  it("without respond the run stops at the first idle pause", async () => {
    const run = await runSeam(chatMachine(), { scripts: { reply: ["a"] }, seam: { request: "reply" } });
    assert.equal(run.result.status, "idle");
    assert.deepEqual(run.result.snapshot.value, "waiting");
  });

  it("a seam the run never reaches leaves callsBeforeSeam -1, seamOutput undefined and an empty after", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: ["d"], scoreDraft: [{ score: 1 }] },
      seam: { request: "scoreDraft", occurrence: 1 },
    });
    assert.equal(run.callsBeforeSeam, -1);
    assert.equal(run.seamOutput, undefined);
    assert.deepEqual(run.after, { statePath: [], events: [] });
    assert.deepEqual(run.before.statePath, ["drafting", "scoring", "done"]);
  });

  it("a candidate that throws is an actor error (the run settles error, nothing rejects)", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: ["d"], scoreDraft: [{ score: 1 }] },
      seam: { request: "scoreDraft" },
      candidate: async () => { throw new Error("model down"); },
    });
    assert.equal(run.result.status, "error");
    assert.equal((run.result as { error: Error }).error.message, "model down");
  });
});
