// Recorded once, replayed forever, through the built CLI with real processes (issue 25's "done when"): a falai
// eval on OpenAIProvider against the local OpenAI-speaking server, a stately eval on createAiSdkExecutors (the
// AI SDK's mock models, which throw once recorded) and one on its own executors. `--record` writes
// __recordings__/<file>.json with no trace of the key; a plain run and `--replay-only` then pass without a
// socket (the server counts connections: zero; then it is stopped and they still pass); an edited prompt
// fails both with the drift message naming the first changed call.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startOpenAIServer, type VendorServer } from "../support/vendor-servers/openai";
import { seedMachineSource } from "../support/seed-machine-source";
import { project, runCliAsync } from "./recordings-support";
import { jsonEvents, suiteCache } from "./support";

const KEY = "placeholder-credential-recordings-5e3b1f0c9a";

const FALAI_EVAL = (prompt: string) => `import { test } from "node:test";
import assert from "node:assert/strict";
import { falai, fakeClock, OpenAIProvider } from "@falai/agent";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const flow = f.flow({ id: "boas-vindas", name: "Boas-vindas", on: [{ message: [] }], steps: [{ id: "nome", prompt: ${JSON.stringify(prompt)}, collect: ["nome"] }, { id: "fim", prompt: "Agradeça." }] });

test("two turns with a real provider", async () => {
  const provider = new OpenAIProvider({ apiKey: process.env.OPENAI_API_KEY, model: "gpt-5-mini" });
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock("2026-09-20T10:00:00.000Z"), flows: [flow] });
  const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
  assert.equal(t1.messages[0]?.text, "Oi! Como você se chama?");
  const t2 = await agent.turn({ sessionId: "s1", session: t1.session, message: "sou a Ana", id: "m2" });
  assert.equal(t2.session.data.nome, "Ana");
  assert.equal(t2.messages[0]?.text, "Prazer, Ana!");
});
`;

describe("recordings: record once, replay without the network", function () {
  this.timeout(300_000);
  const cache = suiteCache();
  let server: VendorServer;
  let dir: string;
  const file = "greeting.eval.ts";
  const recording = () => join(dir, "__recordings__", `${file}.json`);
  const env = () => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url });

  before(async () => {
    server = await startOpenAIServer();
    dir = project({ [file]: FALAI_EVAL("Descubra o nome.") });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("falai + OpenAIProvider: --record calls the server and writes the recording, with no trace of the key", async () => {
    server.script(
      { text: JSON.stringify({ message: "Oi! Como você se chama?", nome: null }), usage: { prompt: 120, completion: 12 } },
      { text: JSON.stringify({ flows: {}, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana" } }), usage: { prompt: 200, completion: 20 } },
      { text: JSON.stringify({ message: "Prazer, Ana!" }), usage: { prompt: 130, completion: 8 } },
    );
    const r = await runCliAsync(["--record", file, "--json"], dir, cache(), env());
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(server.remaining(), 0);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`, "the key did reach the server");
    const text = readFileSync(recording(), "utf8");
    const saved = JSON.parse(text) as { tests: Record<string, { calls: Array<{ key: string; occurrence: number; model: string; usage: unknown }> }> };
    assert.deepEqual(saved.tests["two turns with a real provider"]!.calls.map((c) => [c.key, c.occurrence, c.model]), [["speak", 1, "gpt-5-mini"], ["understand", 1, "gpt-5-mini"], ["speak", 2, "gpt-5-mini"]]);
    assert.deepEqual(saved.tests["two turns with a real provider"]!.calls[0]!.usage, { inputTokens: 120, outputTokens: 12, cachedInputTokens: 0 });
    assert.equal(text.includes(KEY), false, "the key's value occurs nowhere in the recording");
    assert.equal(r.stdout.includes(KEY) || r.stderr.includes(KEY), false, "nor in the events");
    const events = jsonEvents(r.stdout);
    assert.deepEqual(events.filter((e) => e.type === "model-call").map((e) => (e as unknown as { call: { source: string } }).call.source), ["live", "live", "live"]);
    assert.ok(events.some((e) => e.type === "recording"));
  });

  it("a plain run and --replay-only pass from the recording and open no socket, the server up, then down", async () => {
    const before = server.connections;
    for (const mode of [[], ["--replay-only"]]) {
      const r = await runCliAsync([...mode, file], dir, cache(), env());
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /speak #1 · replayed \(recorded \d{4}-\d\d-\d\d, gpt-5-mini\) · 120 in \/ 12 out tokens/);
      assert.match(r.stdout, /model calls: 3 replayed · 450 in \/ 40 out tokens/);
    }
    assert.equal(server.connections, before, "no connection reached the server");
    const down = await startOpenAIServer(); // a port nobody listens on once closed
    const url = down.url;
    await down.close();
    for (const mode of [[], ["--replay-only"]]) {
      const r = await runCliAsync([...mode, file], dir, cache(), { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url });
      assert.equal(r.status, 0, r.stdout + r.stderr);
    }
  });

  it("after the flow's prompt is edited, both fail with the drift naming the first changed call, and nothing goes live", async () => {
    writeFileSync(join(dir, file), FALAI_EVAL("Descubra o nome, com calma."));
    const before = server.connections;
    for (const mode of [[], ["--replay-only"]]) {
      const r = await runCliAsync([...mode, file], dir, cache(), env());
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /replay drifted at call #1 \(call "speak", occurrence 1\): the prompt changed/);
      assert.match(r.stdout, /\n\s+-\s+\| Descubra o nome\.\n\s+\+\s+\| Descubra o nome, com calma\.\n/);
      assert.match(r.stdout, /Record it again: agent-lens run --record greeting\.eval\.ts/);
    }
    assert.equal(server.connections, before, "a drifted call never goes live");
    const json = jsonEvents((await runCliAsync(["--json", file], dir, cache(), env())).stdout) as unknown as Array<{ type: string; drift?: { reason: string; changed: string[]; callSite?: { line: number } } }>;
    const drift = json.find((e) => e.type === "drift")!.drift!;
    assert.equal(drift.reason, "changed");
    assert.deepEqual(drift.changed, ["prompt"]);
    assert.equal(drift.callSite?.line, 11, "at the user's turn() call");
  });
});

/** The seed's machine, with the key in the draft prompt; `executors` is the eval's choice (source text). */
const STATELY_EVAL = (draftPrompt: string, executors: string) => `import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { MockLanguageModelV3 } from "ai/test";
import { setupAgent, runAgent } from "@statelyai/agent";
import { createAiSdkExecutors } from "@statelyai/agent/ai-sdk";

${seedMachineSource(`${draftPrompt} (signed with \${process.env.OPENAI_API_KEY})`)}// Live only while recording: once recorded, a call that reached the model would throw.
const live = process.env.RECORDING_LIVE === "1";
function model(text: string) {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      if (!live) throw new Error("the model was called");
      return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, warnings: [],
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } } };
    },
  });
}
const executors = ${executors};

test("drafts and scores", async () => {
  const result = await runAgent(machine, { input: { topic: "saved cards at checkout" }, executors });
  assert.equal(result.status, "done", String((result as { error?: unknown }).error));
  assert.deepEqual(result.status === "done" && result.output, { draft: "Checkout now supports saved cards.", score: 4 });
});
`;

const AI_SDK = `createAiSdkExecutors({ models: { writer: model("Checkout now supports saved cards."), judge: model(JSON.stringify({ result: { score: 4 } })) } })`;
const OWN = `{
  generateText: async (request) => {
    if (!live) throw new Error("the executor reached its model");
    return request.name === "draftEmail" ? { result: "Checkout now supports saved cards.", usage: { inputTokens: 3, outputTokens: 2 } } : { result: { score: 4 } };
  },
}`;

for (const [kind, executors] of [["createAiSdkExecutors (the AI SDK's mock models)", AI_SDK], ["its own executors", OWN]] as const) {
  describe(`recordings: a stately eval with ${kind}`, function () {
    this.timeout(300_000);
    const cache = suiteCache();
    const file = "draft.eval.ts";
    let dir: string;
    before(() => (dir = project({ [file]: STATELY_EVAL("Write a short email about ${input.topic}.", executors) })));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { OPENAI_API_KEY: KEY };

    it("--record writes both requests, the key (in the prompt) redacted everywhere", async () => {
      const r = await runCliAsync(["--record", "--json", file], dir, cache(), { ...env, RECORDING_LIVE: "1" });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const text = readFileSync(join(dir, "__recordings__", `${file}.json`), "utf8");
      assert.equal(text.includes(KEY), false);
      assert.equal(r.stdout.includes(KEY), false, "no event carries the key (the agent result's messages neither)");
      assert.match(text, /"prompt": "Write a short email about saved cards at checkout\. \(signed with \[redacted\]\)"/);
      const calls = (JSON.parse(text) as { tests: Record<string, { calls: Array<{ key: string }> }> }).tests["drafts and scores"]!.calls;
      assert.deepEqual(calls.map((c) => c.key), ["draftEmail", "scoreDraft"]);
    });

    it("a plain run and --replay-only pass without reaching the model; an edited prompt drifts at request draftEmail in both", async () => {
      for (const mode of [[], ["--replay-only"]]) {
        const r = await runCliAsync([...mode, file], dir, cache(), env);
        assert.equal(r.status, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /draftEmail #1 · replayed \(recorded \d{4}-\d\d-\d\d/);
      }
      writeFileSync(join(dir, file), STATELY_EVAL("Write a long email about ${input.topic}.", executors));
      for (const mode of [[], ["--replay-only"]]) {
        const r = await runCliAsync([...mode, file], dir, cache(), env);
        assert.equal(r.status, 1, r.stdout + r.stderr);
        assert.match(r.stdout, /replay drifted at call #1 \(request "draftEmail", occurrence 1\): the prompt changed/);
        assert.match(r.stdout, /- prompt: "Write a short email about saved cards at checkout\. \(signed with \[redacted\]\)"\n\s+\+ prompt: "Write a long email/);
        assert.doesNotMatch(r.stdout, /reached its model|the model was called/);
      }
    });
  });
}
