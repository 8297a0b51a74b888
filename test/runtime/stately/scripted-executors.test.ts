// createScriptedExecutors: canned answers by request name, in order, the last one repeating; "*" and
// a plain list answer any name; a missing answer is an actor error; wrong scripts are coded errors.
import assert from "node:assert/strict";
import { z } from "zod";
import { AgentError, runAgent, setupAgent } from "../../../runtime/src/stately/index";
import { createScriptedExecutors } from "../../../runtime/src/stately/testing";
import { chatMachine, reviewMachine, seedMachine } from "./fixtures";

const isCode = (code: string) => (error: unknown) => error instanceof AgentError && error.code === code;
const input = { topic: "saved cards at checkout" };

describe("createScriptedExecutors", () => {
  it("answers each request by name, in order, and records the calls", async () => {
    const executors = createScriptedExecutors({ text: { draftEmail: "Checkout now supports saved cards.", scoreDraft: [{ score: 4 }] } });
    const result = await runAgent(seedMachine(), { input, executors });
    assert.equal(result.status, "done");
    assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
    assert.deepEqual(executors.calls.map((c) => [c.kind, c.name]), [["generateText", "draftEmail"], ["generateText", "scoreDraft"]]);
    assert.deepEqual(executors.calls[1]!.input, { draft: "Checkout now supports saved cards." });
  });

  it("the last entry repeats, so a loop needs no more entries; usage defaults from the script", async () => {
    const executors = createScriptedExecutors({ text: { reply: ["one", "two"] }, usage: { inputTokens: 2, outputTokens: 1 } });
    let result = await runAgent(chatMachine(), { executors });
    for (const text of ["a", "b"]) {
      assert.equal(result.status, "idle");
      result = await runAgent(chatMachine(), { executors, snapshot: result.snapshot, event: { type: "USER", text } });
    }
    assert.deepEqual(result.snapshot.context.replies, ["one", "two", "two"]);
    assert.deepEqual(result.usage, { inputTokens: 2, outputTokens: 1, totalTokens: 3, modelCalls: 1 });
  });

  it("a plain list answers every text request in call order; '*' answers names without a queue", async () => {
    const list = await runAgent(seedMachine(), { input, executors: createScriptedExecutors({ text: ["draft", { score: 2 }] }) });
    assert.deepEqual(list.status === "done" && list.output, { draft: "draft", score: 2 });
    const star = await runAgent(seedMachine(), { input, executors: createScriptedExecutors({ text: { draftEmail: "d", "*": [{ score: 3 }] } }) });
    assert.deepEqual(star.status === "done" && star.output, { draft: "d", score: 3 });
  });

  it("entries follow the script-entry rules: envelopes carry usage, functions see the request", async () => {
    const executors = createScriptedExecutors({
      text: {
        draftEmail: (request) => `About ${(request.input as { topic: string }).topic}`,
        scoreDraft: { result: { score: 5 }, usage: { totalTokens: 9 } },
      },
    });
    const result = await runAgent(seedMachine(), { input, executors });
    assert.deepEqual(result.status === "done" && result.output, { draft: "About saved cards at checkout", score: 5 });
    assert.equal(result.usage.totalTokens, 9);
  });

  it("decisions: the chosen event, or { event, reason }; functions see the decision request", async () => {
    const seen: string[][] = [];
    const executors = createScriptedExecutors({
      text: { draft: "v1" },
      decisions: { review: [{ type: "REWRITE" }, (request) => { seen.push(request.events.map((o) => o.type)); return { event: { type: "APPROVE", note: "ok" }, reason: "good enough" }; }] },
    });
    const result = await runAgent(reviewMachine(), { executors });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.value, "approved");
    assert.deepEqual(seen, [["APPROVE", "REWRITE"]]);
    assert.deepEqual(executors.calls.map((c) => c.name), ["draft", "review", "draft", "review"]);
  });

  it("a request with no scripted answer is an actor error naming it (onError routes it)", async () => {
    const result = await runAgent(reviewMachine(), { executors: createScriptedExecutors({ text: { other: "x" } }) });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.value, "failed");
    assert.match(result.snapshot.context.reason, /No scripted answer for request 'draft'\. Known: other/);
    const unrouted = await runAgent(seedMachine(), { input, executors: createScriptedExecutors({ text: { draftEmail: "d" } }) });
    assert.equal(unrouted.status, "error");
    assert.ok(isCode("no-scripted-answer")((unrouted as { error: unknown }).error));
  });

  it("each call builds its own playthrough and never touches the caller's arrays", async () => {
    const queue = ["one", "two"];
    const first = createScriptedExecutors({ text: { reply: queue } });
    await runAgent(chatMachine(), { executors: first });
    const second = createScriptedExecutors({ text: { reply: queue } });
    const result = await runAgent(chatMachine(), { executors: second });
    assert.deepEqual(result.snapshot.context.replies, ["one"]);
    assert.deepEqual(queue, ["one", "two"]);
  });

  it("wrong scripts are coded errors", () => {
    assert.throws(() => createScriptedExecutors(42 as never), isCode("invalid-options"));
    assert.throws(() => createScriptedExecutors({ text: "x" as never }), isCode("invalid-options"));
    assert.throws(() => createScriptedExecutors({ text: { a: [] } }), isCode("invalid-options"));
    assert.throws(() => createScriptedExecutors({ decisions: [{ type: "A" }] as never }), isCode("invalid-options"));
  });
});

describe("createScriptedExecutors: streamText (upstream's streaming executor, called directly)", () => {
  it("reports the scripted chunks to onChunk and resolves the whole text; a text answer is one chunk", async () => {
    const request = { kind: "text", name: "writeDraft", model: "fast", prompt: "write", input: { topic: "x" }, tools: {}, settings: {}, invokeId: "", outputSchema: undefined, structured: false } as const;
    const chunks: string[] = [];
    const streamed = createScriptedExecutors({ stream: { writeDraft: ["hello ", "world"] } });
    assert.deepEqual(await streamed.streamText(request as never, { onChunk: (c) => chunks.push(c) }), { result: "hello world" });
    assert.deepEqual(chunks, ["hello ", "world"]);
    assert.deepEqual(streamed.calls.map((c) => [c.kind, c.name]), [["streamText", "writeDraft"]]);
    const fromText = createScriptedExecutors({ text: { writeDraft: "all at once" } });
    const one: string[] = [];
    assert.deepEqual(await fromText.streamText(request as never, { onChunk: (c) => one.push(c) }), { result: "all at once" });
    assert.deepEqual(one, ["all at once"]);
    assert.throws(() => createScriptedExecutors({ stream: { a: "x" } as never }), isCode("invalid-options"));
  });
});

describe("decide-only agents (upstream's scripted-executors tests)", () => {
  it("setupAgent takes { context, events } without requests; decide executors get request.events with their tool names", async () => {
    const agent = setupAgent({ context: z.object({ outcome: z.string() }), events: { PUBLISH: {}, FLAG: z.object({ reason: z.string() }) } });
    const machine = agent.createMachine({
      context: { outcome: "none" },
      initial: "reviewing",
      states: {
        reviewing: {
          invoke: { src: agent.decide, input: { model: "fast", prompt: "Moderate this." } },
          on: { PUBLISH: () => ({ target: "done", context: { outcome: "published" } }), FLAG: ({ event }) => ({ target: "done", context: { outcome: event.reason } }) },
        },
        done: { type: "final" },
      },
    });
    const offered: unknown[] = [];
    const executors = createScriptedExecutors({ decisions: { "*": (request) => { offered.push(request.events.map((o) => [o.type, o.toolName])); return { type: "FLAG", reason: "borderline" }; } } });
    const result = await runAgent(machine, { executors });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.context.outcome, "borderline");
    assert.deepEqual(offered, [[["PUBLISH", "send_event_PUBLISH"], ["FLAG", "send_event_FLAG"]]]);
    assert.throws(() => setupAgent({ context: z.object({}), requests: [] as never }), isCode("invalid-options"));
  });
});
