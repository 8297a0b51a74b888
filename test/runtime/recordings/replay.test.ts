// Recording at the library boundary, in one process: the harness child's own recorder (ModelCallRecorder)
// installed under the model-call symbol records the seed machine's calls through createAiSdkExecutors (the
// AI SDK's mock models) and a falai agent's provider calls (streamed and not); the recording is written by
// the parent's own writer, then replayed — by the recorder (the models throw when called) and by the
// library-level createRecordedExecutors / recordedProvider — and an edited prompt drifts at that call.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { falai, fakeClock, OpenAIProvider, recordedProvider, type AiProvider, type TurnResult } from "@falai/agent";
import { runAgent, setupAgent } from "../../../runtime/src/stately/index";
import { createAiSdkExecutors } from "../../../runtime/src/stately/ai-sdk";
import { createRecordedExecutors, createScriptedExecutors } from "../../../runtime/src/stately/testing";
import type { ModelCallInfo, RecordingsMode } from "@agent-lens/protocol";
import { MODEL_CALLS_KEY } from "../../../runtime/src/shared/model-calls";
import type { RecordingFile } from "../../../runtime/src/shared/recording/format";
import { ModelCallRecorder, type RecorderFrame } from "../../../runtime/src/harness/child/recorder";
import { writeRecording } from "../../../runtime/src/harness/recordings-file";
import { scripted, spoken, understood, T0 } from "../falai/scripted";
import { startOpenAIServer, type VendorServer } from "../../support/vendor-servers/openai";

const KEY = "placeholder-credential-9f8e7d6c5b4a";

function install(mode: RecordingsMode, recording?: RecordingFile) {
  const frames: RecorderFrame[] = [];
  const failures: string[] = [];
  (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY] = new ModelCallRecorder({
    mode, emit: (f) => frames.push(f), fail: (f) => failures.push(f.message), currentTest: () => ({ test: "the test" }),
    recording: () => recording, recordingPath: "/w/__recordings__/x.test.ts.json", rerecord: "agent-lens run --record x.test.ts", locate: () => undefined,
  });
  return { frames, failures, calls: () => frames.flatMap((f) => (f.type === "model-call" ? [f.call] : [])), drifts: () => frames.flatMap((f) => (f.type === "drift" ? [f.drift] : [])) };
}

/** The recording the parent writes for these calls (written to a temporary folder and read back). */
function recordingOf(calls: ModelCallInfo[]): RecordingFile {
  const dir = mkdtempSync(join(tmpdir(), "agent-lens-rec-"));
  try {
    const written = writeRecording(join(dir, "x.test.ts"), ["the test"], new Map([["the test", calls]]), new Date(Date.UTC(2026, 11, 4)));
    assert.equal(written.written, true);
    return JSON.parse(readFileSync(written.path, "utf8")) as RecordingFile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function seedAgent(draftPrompt: (topic: string) => string) {
  const agent = setupAgent({
    input: z.object({ topic: z.string() }),
    context: z.object({ topic: z.string(), draft: z.string(), score: z.number().nullable() }),
    output: z.object({ draft: z.string(), score: z.number().nullable() }),
    requests: {
      draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => draftPrompt(input.topic) },
      scoreDraft: { model: "judge", schemas: { input: z.object({ draft: z.string() }), output: z.object({ score: z.number() }) }, prompt: ({ input }) => `Score this email from 1 to 5:\n${input.draft}` },
    },
  });
  return agent.createMachine({
    context: ({ input }) => ({ topic: input.topic, draft: "", score: null }),
    initial: "drafting",
    states: {
      drafting: { invoke: { src: "draftEmail", input: ({ context }) => ({ topic: context.topic }), onDone: ({ output }) => ({ target: "scoring", context: { draft: output.result } }) } },
      scoring: { invoke: { src: "scoreDraft", input: ({ context }) => ({ draft: context.draft }), onDone: ({ output }) => ({ target: "done", context: { score: output.result.score } }) } },
      done: { type: "final", output: ({ context }) => ({ draft: context.draft, score: context.score }) },
    },
  });
}

function mockModel(text: string | (() => never)) {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      if (typeof text === "function") text();
      return {
        content: [{ type: "text", text: text as string }], finishReason: { unified: "stop", raw: "stop" }, warnings: [],
        usage: { inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } },
      };
    },
  });
}
const throwing = () => mockModel(() => { throw new Error("the model was called"); });

describe("recordings: stately, at the executor", () => {
  let saved: string | undefined;
  before(() => {
    saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
  });
  after(() => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  });
  afterEach(() => delete (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY]);

  const prompt = (topic: string) => `Write a short email about ${topic}. (key ${process.env.OPENAI_API_KEY})`;
  const input = { topic: "saved cards at checkout" };

  async function record(): Promise<RecordingFile> {
    const rec = install("record");
    const executors = createAiSdkExecutors({ models: { writer: mockModel("Checkout now supports saved cards."), judge: mockModel(JSON.stringify({ result: { score: 4 } })) } });
    const result = await runAgent(seedAgent(prompt), { input, executors });
    assert.equal(result.status, "done");
    assert.deepEqual(rec.calls().map((c) => [c.key, c.occurrence, c.source, c.model, c.usage]), [
      ["draftEmail", 1, "live", "mock-provider/mock-model-id", { inputTokens: 7, outputTokens: 3 }],
      ["scoreDraft", 1, "live", "mock-provider/mock-model-id", { inputTokens: 7, outputTokens: 3 }],
    ]);
    return recordingOf(rec.calls());
  }

  it("records each request with its input (schemas as JSON Schema, the key redacted) and its answer without raw", async () => {
    const recording = await record();
    const text = JSON.stringify(recording);
    assert.equal(text.includes(KEY), false, "the key's value occurs nowhere");
    const draft = recording.tests["the test"]!.calls[0]!;
    assert.deepEqual(Object.keys(draft), ["library", "key", "occurrence", "model", "input", "output", "usage"]);
    assert.deepEqual(Object.keys(draft.input as object), ["input", "kind", "model", "outputSchema", "prompt", "settings", "tools"]);
    assert.equal((draft.input as { prompt: string }).prompt, "Write a short email about saved cards at checkout. (key [redacted])");
    assert.equal((draft.output as { result: string }).result, "Checkout now supports saved cards.");
    assert.equal("raw" in (draft.output as object), false);
  });

  it("replays the run without calling the models, and an edited prompt drifts at that call (never going live)", async () => {
    const recording = await record();
    const replay = install("auto", recording);
    const result = await runAgent(seedAgent(prompt), { input, executors: createAiSdkExecutors({ models: { writer: throwing(), judge: throwing() } }) });
    assert.equal(result.status, "done", String((result as { error?: unknown }).error));
    assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
    assert.deepEqual(replay.calls().map((c) => [c.source, c.recordedAt]), [["replayed", "2026-12-04T00:00:00.000Z"], ["replayed", "2026-12-04T00:00:00.000Z"]]);

    const drifted = install("auto", recording);
    const edited = await runAgent(seedAgent((topic) => `Write a long email about ${topic}.`), { input, executors: createAiSdkExecutors({ models: { writer: throwing(), judge: throwing() } }) });
    assert.equal(edited.status, "error");
    assert.equal((edited as { error: Error }).error.name, "ReplayDriftError");
    const [drift] = drifted.drifts();
    assert.equal(drift?.message, 'replay drifted at call #1 (request "draftEmail", occurrence 1): the prompt changed');
    assert.deepEqual(drift?.diff, [
      "  outputSchema:", '    $schema: "https://json-schema.org/draft/2020-12/schema"', '    type: "string"',
      '- prompt: "Write a short email about saved cards at checkout. (key [redacted])"', '+ prompt: "Write a long email about saved cards at checkout."',
      "  settings: {}", "  tools: {}",
    ]);
  });

  it("replay-only refuses a test without a recording, saying how to record it", async () => {
    const rec = install("replay-only", { version: 1, file: "x.test.ts", tests: {} });
    const result = await runAgent(seedAgent(prompt), { input, executors: createAiSdkExecutors({ models: { writer: throwing(), judge: throwing() } }) });
    assert.equal(result.status, "error");
    assert.equal(rec.drifts()[0]?.message, 'no recording for test "the test" in /w/__recordings__/x.test.ts.json: a replay-only run makes no live model calls. Record it with: agent-lens run --record x.test.ts');
  });

  it("scripted executors are not model calls: neither recorded nor replayed", async () => {
    const rec = install("replay-only", { version: 1, file: "x.test.ts", tests: {} });
    const result = await runAgent(seedAgent(prompt), { input, executors: createScriptedExecutors({ text: { draftEmail: "Hi.", scoreDraft: { score: 2 } } }) });
    assert.equal(result.status, "done");
    assert.deepEqual(rec.frames, []);
  });

  it("createRecordedExecutors replays a recording in code; a drift ends the run with AgentError replay-drift", async () => {
    const recording = await record();
    const executors = createRecordedExecutors(recording, { test: "the test" });
    const result = await runAgent(seedAgent(prompt), { input, executors });
    assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
    assert.deepEqual(executors.remaining(), []);
    const again = createRecordedExecutors(recording.tests["the test"]);
    const edited = await runAgent(seedAgent(() => "Something else."), { input, executors: again });
    assert.equal(edited.status, "error");
    const error = (edited as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "replay-drift");
    assert.match(error.message, /^replay drifted at call #1 \(request "draftEmail", occurrence 1\): the prompt changed\n/);
    assert.equal(again.remaining().length, 2);
  });
});

describe("recordings: falai, at the provider", () => {
  afterEach(() => delete (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY]);
  const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
  const flows = (prompt: string) => [f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [] }], steps: [{ id: "nome", prompt, collect: ["nome"] }] })];
  const provider = () => scripted({ understand: [understood({ fields: { nome: "Ana" } })], speak: [spoken("Oi! Como você se chama?", { nome: null }), spoken("Prazer, Ana!")] }, { chunks: (t) => [t.slice(0, 3), t.slice(3)] });
  const refusing: AiProvider = {
    name: "refusing", capabilities: provider().capabilities,
    generateMessage: () => Promise.reject(new Error("the provider was called")),
    async *generateMessageStream() { throw new Error("the provider was called"); },
  };

  async function twoTurns(p: AiProvider, prompt = "Descubra o nome.") {
    const agent = f.agent({ name: "Ana", provider: p, clock: fakeClock(T0), flows: flows(prompt) });
    const first = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const deltas: string[] = [];
    let second: TurnResult | undefined;
    for await (const chunk of agent.turnStream({ sessionId: "s1", session: first.session, message: "sou a Ana", id: "m2" })) {
      if ("delta" in chunk && chunk.delta !== undefined) deltas.push(chunk.delta);
      else if ("done" in chunk) second = (chunk as { result: TurnResult }).result;
    }
    return { first, second: second!, deltas };
  }

  it("records both turns (the streamed one with its chunks), replays them without the provider, in code too", async () => {
    const rec = install("record");
    const live = await twoTurns(provider());
    assert.deepEqual(live.deltas, ["Pra", "zer, Ana!"]);
    assert.deepEqual(rec.calls().map((c) => [c.index, c.key, c.occurrence, c.model, (c.input as { stream: boolean }).stream]), [
      [1, "speak", 1, "scripted", false], [2, "understand", 1, "scripted", false], [3, "speak", 2, "scripted", true],
    ]);
    const recording = recordingOf(rec.calls());
    const speak2 = recording.tests["the test"]!.calls[2]!;
    assert.equal((speak2.output as { chunks: unknown[] }).chunks.length, 2);

    install("auto", recording);
    const replayed = await twoTurns(refusing);
    assert.deepEqual(replayed.deltas, live.deltas);
    assert.deepEqual(replayed.second.session.data, { nome: "Ana" });
    assert.deepEqual(replayed.second.messages, live.second.messages);

    delete (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY];
    const inCode = recordedProvider(recording);
    const again = await twoTurns(inCode);
    assert.deepEqual(again.deltas, live.deltas);
    assert.deepEqual(again.second.messages, live.second.messages);
    assert.deepEqual(inCode.remaining(), []);
  });

  it("an edited flow prompt drifts at the first call: the turn rejects with ReplayDriftError", async () => {
    const rec = install("record");
    await twoTurns(provider());
    const recording = recordingOf(rec.calls());
    const replay = install("auto", recording);
    await assert.rejects(twoTurns(refusing, "Pergunte o nome, com calma."), (e: Error) => e.name === "ReplayDriftError" && /^replay drifted at call #1 \(call "speak", occurrence 1\): the prompt changed$/.test(e.message));
    assert.equal(replay.drifts()[0]?.reason, "changed");
    delete (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY];
    await assert.rejects(twoTurns(recordedProvider(recording), "Pergunte o nome, com calma."), (e: Error) => e.name === "ReplayDriftError");
  });

  it("a provider failure is recorded and replayed as the same failure (the step waits the same way)", async () => {
    const rec = install("record");
    const failing = scripted({ speak: [] });
    const agent = (p: AiProvider) => f.agent({ name: "Ana", provider: p, clock: fakeClock(T0), flows: flows("Descubra o nome.") });
    const live = await agent(failing).turn({ sessionId: "s1", message: "oi", id: "m1" });
    const recording = recordingOf(rec.calls());
    assert.equal(recording.tests["the test"]!.calls[0]!.error?.name, "Error");
    install("auto", recording);
    const replayed = await agent(refusing).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(replayed.outcomes, live.outcomes);
    assert.deepEqual(replayed.schedule, live.schedule);
  });

  it("a test whose recording has a call the run no longer makes reports it at the test's end", async () => {
    const rec = install("record");
    await twoTurns(provider());
    const recording = recordingOf(rec.calls());
    const replay = install("auto", recording);
    const agent = f.agent({ name: "Ana", provider: refusing, clock: fakeClock(T0), flows: flows("Descubra o nome.") });
    await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const recorder = (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY] as ModelCallRecorder;
    recorder.endTest("the test");
    assert.equal(replay.drifts()[0]?.message, 'replay drifted at call #2 (call "understand", occurrence 1): the recording has this call, and the test no longer makes it');
  });
});

describe("recordings: a built-in provider called directly", () => {
  let server: VendorServer;
  let saved: string | undefined;
  before(async () => {
    server = await startOpenAIServer();
    saved = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = server.url;
  });
  after(async () => {
    if (saved === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved;
    await server.close();
  });
  afterEach(() => delete (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY]);
  const input = { prompt: "Write a flow.", history: [], parameters: { schemaName: "flow" } };

  it("is one model call: recorded, then replayed without a connection (as upstream's 09-flows-from-json calls it)", async () => {
    server.script({ text: "Um fluxo.", usage: { prompt: 5, completion: 2 } });
    const rec = install("record");
    const live = await new OpenAIProvider({ apiKey: KEY, model: "gpt-5-mini" }).generateMessage(input);
    assert.deepEqual(rec.calls().map((c) => [c.key, c.model, c.source]), [["flow", "gpt-5-mini", "live"]]);
    const recording = recordingOf(rec.calls());
    const connections = server.connections;
    install("replay-only", recording);
    const replayed = await new OpenAIProvider({ apiKey: KEY, model: "gpt-5-mini" }).generateMessage(input);
    assert.deepEqual(replayed, live);
    assert.equal(server.connections, connections);
  });

  it("a provider that hands the turn's input on to a built-in one makes one call, not two", async () => {
    server.script({ text: JSON.stringify({ message: "Oi!", nome: null }) });
    const rec = install("record");
    const inner = new OpenAIProvider({ apiKey: KEY, model: "gpt-5-mini" });
    const wrapper: AiProvider = { name: "wrapper", capabilities: inner.capabilities, generateMessage: (i) => inner.generateMessage(i) };
    const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
    const agent = f.agent({ name: "Ana", provider: wrapper, clock: fakeClock(T0), flows: [f.flow({ id: "a", name: "A", on: [{ message: [] }], steps: [{ id: "s", collect: ["nome"] }] })] });
    await agent.turn({ sessionId: "s", message: "oi", id: "m1" });
    assert.deepEqual(rec.calls().map((c) => [c.key, c.occurrence]), [["speak", 1]]);
  });
});
