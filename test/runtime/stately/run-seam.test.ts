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

  it("slices at the seam: states at its call, events at its own completion; both sides cover the whole run", async () => {
    const run = await runSeam(chatMachine(), {
      scripts: { reply: ["one", "two", "three"] },
      seam: { request: "reply", occurrence: 1 },
      respond: ({ turn }) => (turn < 2 ? { type: "USER", text: `m${turn}` } : { type: "BYE" }),
    });
    const all = [...run.before.events, ...run.after.events].map((e) => e.type);
    assert.deepEqual(all, ["@xstate.init", "xstate.done.actor", "USER", "xstate.done.actor", "USER", "xstate.done.actor", "BYE"]);
    assert.deepEqual(run.before.events.map((e) => e.type), ["@xstate.init", "xstate.done.actor", "USER"]);
    // the seam's own completion opens the after slice, and carries the seam's answer
    assert.equal((run.after.events[0] as { output?: { result: unknown } }).output?.result, "two");
    assert.equal([...run.before.statePath, ...run.after.statePath].length, all.length);
    // the run's log covers every leg, resumed ones included
    assert.deepEqual(run.result.events.map((e) => e.event.type), ["@agent.init", ...all.slice(1)]);
  });

  it("respond sees the live snapshot, the state value, the merged meta and the idle result", async () => {
    const seen: unknown[] = [];
    await runSeam(chatMachine(), {
      scripts: { reply: ["one"] },
      repeatLast: true,
      seam: { request: "reply" },
      respond: ({ snapshot, state, meta, turn, result }) => {
        seen.push([state, meta, turn, result.status, snapshot.status, snapshot.matches("waiting"), snapshot.can({ type: "BYE" })]);
        return turn === 0 ? { type: "USER", text: "again" } : null;
      },
    });
    assert.deepEqual(seen, [["waiting", {}, 0, "idle", "active", true, true], ["waiting", {}, 1, "idle", "active", true, true]]);
  });

  it("scripts may be left out when a candidate answers every call; wrong option types are coded errors", async () => {
    const run = await runSeam(chatMachine(), { seam: { request: "reply" }, candidate: async () => ({ result: "live" }) });
    assert.equal(run.seamOutput, "live");
    assert.deepEqual(run.calls, [{ name: "reply", model: "chat", key: "chat", source: "candidate", seam: true }]);
    assert.equal(run.callsBeforeSeam, 0);
    await assert.rejects(runSeam(chatMachine(), { scripts: [] as never, seam: { request: "reply" } }), isCode("invalid-options"));
    await assert.rejects(runSeam(chatMachine(), { seam: { request: "reply" }, respond: "USER" as never }), isCode("invalid-options"));
    await assert.rejects(runSeam(chatMachine(), { seam: { request: "reply" }, maxTurns: -1 }), isCode("invalid-options"));
  });

  it("a dry queue rejects with seam-script-exhausted naming request, model and key (the seed's rule)", async () => {
    await assert.rejects(
      runSeam(chatMachine(), { scripts: { chat: ["a"] }, seam: { request: "reply" }, respond: () => ({ type: "USER", text: "x" }) }),
      (error: unknown) =>
        isCode("seam-script-exhausted")(error) &&
        /no scripted answer left for request 'reply' \(model 'chat'\): scripts\.chat is empty/.test((error as Error).message) &&
        (error as AgentError).key === "chat",
    );
  });
});
