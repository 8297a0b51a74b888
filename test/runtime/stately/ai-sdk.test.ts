// createAiSdkExecutors with the AI SDK's own MockLanguageModelV3: text, structured JSON, decisions as tools.
import assert from "node:assert/strict";
import { MockLanguageModelV3 } from "ai/test";
import { AgentError, runAgent } from "../../../runtime/src/stately/index";
import { createAiSdkExecutors, defineModels } from "../../../runtime/src/stately/ai-sdk";
import { reviewMachine, seedMachine } from "./fixtures";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
type Content = Array<{ type: "text"; text: string } | { type: "tool-call"; toolCallId: string; toolName: string; input: string }>;
function model(content: Content, u = usage(1, 1)) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({ content, finishReason: { unified: content[0]?.type === "tool-call" ? "tool-calls" : "stop", raw: "stop" }, usage: u, warnings: [] }),
  });
}

describe("createAiSdkExecutors", () => {
  it("decisions offer one send_event_<TYPE> tool per allowed event and take the call's input as payload", async () => {
    const writer = model([{ type: "text", text: "draft" }], usage(10, 5));
    const judge = model([{ type: "tool-call", toolCallId: "1", toolName: "send_event_APPROVE", input: JSON.stringify({ note: "fine" }) }], usage(7, 3));
    const result = await runAgent(reviewMachine(), { executors: createAiSdkExecutors({ models: { writer, judge } }) });
    assert.equal(result.status, "done");
    assert.equal(result.snapshot.value, "approved");
    const tools = (judge.doGenerateCalls[0]!.tools ?? []).map((t) => t.name).sort();
    assert.deepEqual(tools, ["send_event_APPROVE", "send_event_REWRITE"]);
    assert.equal(judge.doGenerateCalls[0]!.toolChoice?.type, "required");
    assert.deepEqual(result.usage, { inputTokens: 17, outputTokens: 8, totalTokens: 25, modelCalls: 2 });
  });

  it("a plain-text request sends the rendered prompt and takes the text as is", async () => {
    const writer = model([{ type: "text", text: "  spaced text  " }]);
    const judge = model([{ type: "text", text: JSON.stringify({ result: { score: 3 } }) }]);
    const result = await runAgent(seedMachine(), { input: { topic: "cards" }, executors: createAiSdkExecutors({ models: { writer, judge } }) });
    assert.deepEqual(result.status === "done" && result.output, { draft: "  spaced text  ", score: 3 });
    assert.equal(writer.doGenerateCalls[0]!.responseFormat?.type ?? "text", "text");
    assert.match(JSON.stringify(writer.doGenerateCalls[0]!.prompt), /Write a short email about cards\./);
  });

  it("a structured answer that is not { result } JSON settles a coded error", async () => {
    const writer = model([{ type: "text", text: "d" }]);
    const judge = model([{ type: "text", text: JSON.stringify({ score: 3 }) }]);
    const result = await runAgent(seedMachine(), { input: { topic: "cards" }, executors: createAiSdkExecutors({ models: { writer, judge } }) });
    assert.equal(result.status, "error");
    assert.ok(result.status === "error" && result.error instanceof AgentError && result.error.code === "model-output-not-json");
  });

  it("a model key with no model is an unknown-model error", async () => {
    const result = await runAgent(seedMachine(), { input: { topic: "cards" }, executors: createAiSdkExecutors({ models: {} }) });
    assert.ok(result.status === "error" && result.error instanceof AgentError && result.error.code === "unknown-model");
  });

  it("resolveModel answers keys the models map lacks; settings(request) reaches every call", async () => {
    const judge = model([{ type: "text", text: JSON.stringify({ result: { score: 2 } }) }]);
    const fallback = model([{ type: "text", text: "resolved draft" }]);
    const asked: string[] = [];
    const executors = createAiSdkExecutors({
      models: defineModels({ judge }),
      resolveModel: (key, request) => {
        asked.push(`${key}:${request.name}`);
        return key === "writer" ? fallback : undefined;
      },
      settings: (request) => ({ providerOptions: { test: { request: request.name } }, temperature: 0.5 }),
    });
    const result = await runAgent(seedMachine(), { input: { topic: "cards" }, executors });
    assert.deepEqual(result.status === "done" && result.output, { draft: "resolved draft", score: 2 });
    assert.deepEqual(asked, ["writer:draftEmail"]);
    assert.deepEqual(fallback.doGenerateCalls[0]!.providerOptions, { test: { request: "draftEmail" } });
    assert.equal(judge.doGenerateCalls[0]!.temperature, 0.5);
    assert.equal(judge.doGenerateCalls[0]!.responseFormat?.type, "json");
  });

  it("options are checked: a models map or resolveModel is needed; hooks are functions; settings return objects", async () => {
    assert.throws(() => createAiSdkExecutors({} as never), (e: unknown) => e instanceof AgentError && e.code === "invalid-options");
    assert.throws(() => createAiSdkExecutors({ models: {}, settings: 3 as never }), (e: unknown) => e instanceof AgentError && e.code === "invalid-options");
    const executors = createAiSdkExecutors({ resolveModel: () => model([{ type: "text", text: "x" }]), settings: () => "no" as never });
    const result = await runAgent(seedMachine(), { input: { topic: "cards" }, executors });
    assert.ok(result.status === "error" && result.error instanceof AgentError && result.error.code === "invalid-options");
  });
});
