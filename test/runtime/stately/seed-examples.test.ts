// Every example of the seed document (000_6cd8dfed8f726c58.txt), each as its own test, against runtime/src.
import assert from "node:assert/strict";
import { MockLanguageModelV3 } from "ai/test";
import { AgentError, runAgent } from "../../../runtime/src/stately/index";
import { createAiSdkExecutors } from "../../../runtime/src/stately/ai-sdk";
import { runSeam } from "../../../runtime/src/stately/testing";
import { reviewMachine, seedMachine, unnamedMachine, wrappedOutputMachine } from "./fixtures";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
function mockModel(text: string) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
  });
}
const input = { topic: "saved cards at checkout" };

describe("seed: @statelyai/agent examples", () => {
  it("mock the model: runs through createAiSdkExecutors, one judge call, output { draft, score: 4 }", async () => {
    const writer = mockModel("Checkout now supports saved cards.");
    const judge = mockModel(JSON.stringify({ result: { score: 4 } }));
    const result = await runAgent(seedMachine(), { input, executors: createAiSdkExecutors({ models: { writer, judge } }) });
    assert.equal(result.status, "done");
    assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
    assert.equal(judge.doGenerateCalls.length, 1);
    // the adapter rendered the prompt and asked for JSON
    const call = judge.doGenerateCalls[0]!;
    assert.match(JSON.stringify(call.prompt), /Score this email from 1 to 5:\\nCheckout now supports saved cards\./);
    assert.equal(call.responseFormat?.type, "json");
    assert.deepEqual(result.usage, { inputTokens: 2, outputTokens: 2, totalTokens: 4, modelCalls: 2 });
  });

  it("plain-function executors: routed by request.name in call order", async () => {
    const calls: string[] = [];
    const result = await runAgent(seedMachine(), {
      input,
      executors: {
        generateText: async (request) => {
          calls.push(request.name ?? "");
          switch (request.name) {
            case "draftEmail":
              return { result: "Checkout now supports saved cards." };
            case "scoreDraft":
              return { result: { score: 4 } };
            default:
              throw new Error(`No answer for request "${request.name}"`);
          }
        },
      },
    });
    assert.deepEqual(calls, ["draftEmail", "scoreDraft"]);
    assert.equal(result.status, "done");
  });

  it("runSeam: seamOutput and call sources", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: ["Checkout now supports saved cards."], scoreDraft: [{ score: 4 }] },
      seam: { request: "scoreDraft" },
    });
    assert.deepEqual(run.seamOutput, { score: 4 });
    assert.deepEqual(run.calls.map((call) => call.source), ["script", "script"]);
    assert.deepEqual(run.before.statePath, ["drafting", "scoring"]);
    assert.deepEqual(run.after.statePath, ["done"]);
    assert.deepEqual(run.before.events.map((e) => e.type), ["@xstate.init", "xstate.done.actor"]);
    assert.deepEqual(run.after.events.map((e) => e.type), ["xstate.done.actor"]);
    assert.equal(run.callsBeforeSeam, 1);
    assert.equal(run.result.status, "done");
  });

  it("runSeam: a candidate answers the seam and still consumes its slot", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: ["d"], scoreDraft: [{ score: 1 }] },
      seam: { request: "scoreDraft" },
      candidate: async () => ({ result: { score: 5 }, usage: { totalTokens: 7 } }),
    });
    assert.deepEqual(run.seamOutput, { score: 5 });
    assert.deepEqual(run.seamUsage, { totalTokens: 7 });
    assert.deepEqual(run.calls.map((c) => c.source), ["script", "candidate"]);
    assert.deepEqual(run.unusedScripts, []);
  });

  it("seamUsage comes from an entry's usage envelope", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: [{ result: "draft", usage: { totalTokens: 120 } }], scoreDraft: [{ score: 4 }] },
      seam: { request: "draftEmail" },
    });
    assert.equal(run.seamOutput, "draft");
    assert.deepEqual(run.seamUsage, { totalTokens: 120 });
  });

  it("repeatLast replays a queue's last entry", async () => {
    const machine = reviewMachine();
    let decisions = 0;
    const run = await runSeam(machine, {
      scripts: { draft: ["v1"] },
      seam: { request: "draft", occurrence: 1 },
      repeatLast: true,
      executors: { decide: async () => ({ event: { type: decisions++ === 0 ? "REWRITE" : "APPROVE" } }) },
    });
    assert.equal(run.result.status, "done");
    assert.deepEqual(run.calls.map((c) => c.name), ["draft", "draft"]);
    assert.equal(run.seamOutput, "v1");
    assert.deepEqual([...run.before.statePath, ...run.after.statePath], ["drafting", "reviewing", "drafting", "reviewing", "approved"]);
  });

  it("a dry queue throws AgentError seam-script-exhausted naming the request", async () => {
    let decisions = 0;
    await assert.rejects(
      runSeam(reviewMachine(), {
        scripts: { draft: ["v1"] },
        seam: { request: "draft" },
        executors: { decide: async () => ({ event: { type: decisions++ === 0 ? "REWRITE" : "APPROVE" } }) },
      }),
      (error: unknown) => {
        assert.ok(error instanceof AgentError);
        assert.equal(error.code, "seam-script-exhausted");
        assert.match(error.message, /request 'draft' \(model 'writer'\)/);
        assert.equal(error.request, "draft");
        return true;
      },
    );
  });

  it("unnamed requests route by model key", async () => {
    const run = await runSeam(unnamedMachine(), {
      scripts: { fast: ["A"], slow: ["B"] },
      seam: { request: "0.(machine).second" },
    });
    assert.equal(run.result.status, "done");
    assert.deepEqual(run.result.status === "done" && run.result.output, { a: "A", b: "B" });
    assert.deepEqual(run.calls.map((c) => [c.name, c.key]), [["0.(machine).first", "fast"], ["0.(machine).second", "slow"]]);
    assert.equal(run.seamOutput, "B");
  });

  it("the double wrap: an output that is itself { result } needs { result: { result } }", async () => {
    const run = await runSeam(wrappedOutputMachine(), { scripts: { answer: [{ result: { result: "wrapped" } }] }, seam: { request: "answer" } });
    assert.deepEqual(run.seamOutput, { result: "wrapped" });
    assert.deepEqual(run.result.status === "done" && run.result.output, { text: "wrapped" });
    // a single wrap is read as an envelope whose result ("wrapped") breaks the declared output
    const single = await runSeam(wrappedOutputMachine(), { scripts: { answer: [{ result: "wrapped" }] }, seam: { request: "answer" } });
    assert.equal(single.result.status, "error");
    assert.equal((single.result as { error: AgentError }).error.code, "invalid-request-output");
  });

  it("an entry may be a function of the request", async () => {
    const run = await runSeam(seedMachine(), {
      input,
      scripts: { draftEmail: [(request) => "Draft about " + request.prompt], scoreDraft: [{ score: 3 }] },
      seam: { request: "draftEmail" },
    });
    assert.equal(run.seamOutput, "Draft about Write a short email about saved cards at checkout.");
  });

  it("decide routes by request.name and returns the chosen event", async () => {
    const names: string[] = [];
    const result = await runAgent(reviewMachine(), {
      executors: {
        generateText: async () => ({ result: "a draft" }),
        decide: async (request) => {
          names.push(request.name);
          assert.deepEqual(request.events.map((o) => o.type).sort(), ["APPROVE", "REWRITE"]);
          return { event: { type: "APPROVE" } };
        },
      },
    });
    assert.deepEqual(names, ["review"]);
    assert.equal(result.status, "done");
  });

  it("an executor that throws is an actor error routed by onError", async () => {
    const result = await runAgent(reviewMachine(), {
      executors: { generateText: async () => { throw new Error("provider down"); } },
    });
    assert.equal(result.status, "done");
    assert.deepEqual(result.snapshot.value, "failed");
    assert.equal(result.snapshot.context.reason, "provider down");
  });
});
