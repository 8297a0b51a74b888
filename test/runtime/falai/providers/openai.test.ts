// OpenAIProvider against a local server speaking OpenAI's Chat Completions (OPENAI_BASE_URL points the real `openai`
// SDK at it): plain and structured replies, a tool round trip and streaming through real turns, retry on 429,
// failover to a backup model, fail-fast on 401 as the turn's provider-auth, per-attempt timeouts, aborts, and the
// key kept out of every error. Nothing leaves 127.0.0.1.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { OpenAIProvider, ProviderError } from "@falai/agent";
import { startOpenAIServer, type VendorServer } from "../../../support/vendor-servers/openai";
import { agentFor, assertNoSecret, KEY, rejection, useEnv } from "./support";

let server: VendorServer;
const provider = (extra: Record<string, unknown> = {}) => new OpenAIProvider({ apiKey: KEY, model: "gpt-5-mini", ...extra });
const json = (o: unknown) => JSON.stringify(o);

describe("OpenAIProvider (local OpenAI-speaking server)", () => {
  before(async () => {
    server = await startOpenAIServer();
  });
  after(() => server.close());
  useEnv(() => ({ OPENAI_BASE_URL: server.url, OPENAI_ORG_ID: undefined, OPENAI_PROJECT_ID: undefined }));
  beforeEach(() => {
    server.requests.length = 0;
    assert.equal(server.remaining(), 0, "the previous test used up its script");
  });

  it("a plain reply: system, history and prompt go out as chat messages; text, usage and the answering model come back", async () => {
    server.script({ text: "Olá!", usage: { prompt: 12, completion: 3, cached: 4 }, model: "gpt-5-mini-2025-08-07" });
    const out = await provider({ organization: "org_abc", config: { temperature: 0.2 } }).generateMessage({
      system: "Você é a Ana.", prompt: "Cumprimente.", history: [{ role: "user", content: "oi" }, { role: "assistant", content: "Oi!" }],
    });
    assert.equal(out.message, "Olá!");
    assert.deepEqual(out.metadata, { provider: "openai", model: "gpt-5-mini", responseModel: "gpt-5-mini-2025-08-07", promptTokens: 12, completionTokens: 3, cachedInputTokens: 4, finishReason: "stop" });
    const [req] = server.requests;
    assert.equal(req!.path, "/v1/chat/completions");
    assert.equal(req!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req!.headers["openai-organization"], "org_abc");
    assert.deepEqual(req!.body, {
      temperature: 0.2, model: "gpt-5-mini",
      messages: [{ role: "system", content: "Você é a Ana." }, { role: "user", content: "oi" }, { role: "assistant", content: "Oi!" }, { role: "user", content: "Cumprimente." }],
    });
  });

  it("a structured reply: the schema goes out as a strict json_schema response_format named after schemaName", async () => {
    server.script({ text: json({ message: "Para quantas pessoas?", pessoas: null }) });
    const { start } = agentFor(provider());
    const r = await start("quantos");
    assert.deepEqual(r.messages.map((m) => m.text), ["Para quantas pessoas?"]);
    const format = server.requests[0]!.body.response_format;
    assert.equal(format.type, "json_schema");
    assert.equal(format.json_schema.name, "speak");
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(format.json_schema.schema.required, ["message", "pessoas"]);
    assert.deepEqual(r.usage, { promptTokens: 10, completionTokens: 5, cachedInputTokens: 0 });
  });

  it("a schema that is not closed goes out with strict false (OpenAI would refuse it in strict mode)", async () => {
    server.script({ text: json({ nome: "Ana" }) });
    const out = await provider().generateMessage({ prompt: "Nome?", history: [], parameters: { schemaName: "pessoa", jsonSchema: { type: "object", properties: { nome: { type: "string" } } } } });
    assert.deepEqual(out.structured, { nome: "Ana" });
    assert.equal(server.requests[0]!.body.response_format.json_schema.strict, false);
  });

  it("a tool call round trip through agent.turn: the call, the tool's result in the history, then the reply", async () => {
    server.script({ toolCalls: [{ id: "call_xyz", name: "orcamento", arguments: { pessoas: 3 } }] }, { text: json({ message: "O total é R$ 1500." }) });
    const { start } = agentFor(provider());
    const r = await start("orc");
    assert.deepEqual(r.messages.map((m) => m.text), ["O total é R$ 1500."]);
    assert.equal(r.session.data.orcamento, 1500);
    assert.equal(r.llmCalls, 2);
    const [first, second] = server.requests;
    assert.deepEqual(first!.body.tools, [{ type: "function", function: { name: "orcamento", description: "Calcula o orçamento para o número de pessoas", parameters: { type: "object", properties: { pessoas: { type: "number" } }, required: ["pessoas"] } } }]);
    const roles = second!.body.messages.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ["system", "assistant", "tool", "user"]);
    assert.deepEqual(second!.body.messages[1], { role: "assistant", content: null, tool_calls: [{ id: "call-1-0", type: "function", function: { name: "orcamento", arguments: '{"pessoas":3}' } }] });
    assert.deepEqual(second!.body.messages[2], { role: "tool", tool_call_id: "call-1-0", content: '{"total":1500}' });
  });

  it("streaming through turnStream: SSE chunks of the JSON envelope arrive as deltas of the message text alone", async () => {
    server.script({ text: json({ message: "Olá! Para quantas pessoas?", pessoas: null }), chunks: ['{"mess', 'age":"Olá! Pa', "ra quantas", ' pessoas?","pessoas":null}'], usage: { prompt: 20, completion: 9 } });
    const { stream } = agentFor(provider());
    const deltas: string[] = [];
    let result: any;
    for await (const chunk of stream("quantos")) {
      if ("delta" in chunk) deltas.push(chunk.delta);
      else result = chunk.result;
    }
    assert.equal(deltas.join(""), "Olá! Para quantas pessoas?");
    assert.ok(deltas.length >= 3 && deltas.every((d) => !d.includes("{") && !d.includes('"')), inspect(deltas));
    assert.deepEqual(result.messages.map((m: { text: string }) => m.text), ["Olá! Para quantas pessoas?"]);
    assert.deepEqual(result.usage, { promptTokens: 20, completionTokens: 9, cachedInputTokens: 0 });
    assert.equal(server.requests[0]!.body.stream, true);
    assert.deepEqual(server.requests[0]!.body.stream_options, { include_usage: true });
  });

  it("a streamed tool call round trip: tool-call deltas are assembled, the next round streams the reply", async () => {
    server.script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 2 } }] }, { text: json({ message: "Total: 1000." }) });
    const { stream } = agentFor(provider());
    const deltas: string[] = [];
    let result: any;
    for await (const chunk of stream("orc")) {
      if ("delta" in chunk) deltas.push(chunk.delta);
      else result = chunk.result;
    }
    assert.equal(deltas.join(""), "Total: 1000.");
    assert.equal(result.session.data.orcamento, 1000);
    assert.equal(server.requests[1]!.body.messages[2].content, '{"total":1000}');
  });

  it("a 429 is tried again on the same model (after the retry-after the server names) and the second attempt answers", async () => {
    server.script({ status: 429, headers: { "retry-after-ms": "20" } }, { text: "Depois do limite." });
    const out = await provider().generateMessage({ prompt: "Oi", history: [] });
    assert.equal(out.message, "Depois do limite.");
    assert.deepEqual(server.requests.map((r) => r.model), ["gpt-5-mini", "gpt-5-mini"]);
  });

  it("a 500 on the primary model, every attempt, then the first backup model answers; metadata names the backup", async () => {
    server.script((req) => (req.model === "gpt-primary" ? { status: 500, headers: { "retry-after-ms": "0" } } : { text: "Sou o reserva." }));
    server.script((req) => (req.model === "gpt-primary" ? { status: 500, headers: { "retry-after-ms": "0" } } : { text: "Sou o reserva." }));
    server.script((req) => (req.model === "gpt-primary" ? { status: 500, headers: { "retry-after-ms": "0" } } : { text: "Sou o reserva." }));
    server.script((req) => (req.model === "gpt-primary" ? { status: 500 } : { text: "Sou o reserva." }));
    const out = await provider({ model: "gpt-primary", backupModels: ["gpt-backup", "gpt-never"] }).generateMessage({ prompt: "Oi", history: [] });
    assert.equal(out.message, "Sou o reserva.");
    assert.equal(out.metadata?.model, "gpt-backup");
    assert.deepEqual(server.requests.map((r) => r.model), ["gpt-primary", "gpt-primary", "gpt-primary", "gpt-backup"]);
  });

  it("when every model fails the last failure is thrown, classified (a 429 left over defers the turn's step)", async () => {
    const limited = { status: 429, message: "Rate limit reached", headers: { "retry-after-ms": "0" } };
    server.script(limited, limited);
    const e = await rejection(provider({ backupModels: ["gpt-backup"], retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
    assert.ok(e instanceof ProviderError);
    assert.deepEqual([e.kind, e.status, e.provider, e.isTransient], ["rate", 429, "openai", true]);
    assert.match(e.message, /gpt-backup: 429 Rate limit reached/);
    server.script(limited, limited, limited);
    const r = await agentFor(provider()).start("quantos");
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["collect", "deferred", "provider-unavailable"]]);
    assert.equal(r.schedule.length, 1);
  });

  it("a 401 fails at once (no retry, no backup) as provider-auth, and the turn's outcome says so", async () => {
    server.script({ status: 401, message: "Incorrect API key provided" });
    const e = await rejection(provider({ backupModels: ["gpt-backup"] }).generateMessage({ prompt: "Oi", history: [] }));
    assert.deepEqual([e.name, e.kind, e.status], ["ProviderError", "auth", 401]);
    assert.equal(server.requests.length, 1);
    server.script({ status: 401, message: "Incorrect API key provided" });
    const r = await agentFor(provider({ backupModels: ["gpt-backup"] })).start("quantos");
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["collect", "failed", "provider-auth"]]);
    assert.deepEqual(r.ended.map((x) => x.reason), ["failed"]);
    assert.equal(server.requests.length, 2);
  });

  it("each attempt has its own timeout: two attempts that never answer end as a timeout failure", async () => {
    server.script({ hang: true }, { hang: true });
    const e = await rejection(provider({ retryConfig: { timeout: 150, retries: 2 } }).generateMessage({ prompt: "Oi", history: [] }));
    assert.deepEqual([e.kind, e.isTransient], ["timeout", true]);
    assert.match(e.message, /no answer within 150 ms/);
    assert.equal(server.requests.length, 2);
  });

  it("a streamed attempt times out too when its first chunk does not come", async () => {
    server.script({ hang: true });
    const p = provider({ retryConfig: { timeout: 150, retries: 1 } });
    const e = await rejection((async () => {
      for await (const _ of p.generateMessageStream({ prompt: "Oi", history: [] })) void _;
    })());
    assert.equal(e.kind, "timeout");
  });

  it("the caller's abort signal ends the call at once, without retries", async () => {
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = provider().generateMessage({ prompt: "Oi", history: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const e = await rejection(pending);
    assert.equal(e.kind, "aborted");
    assert.equal(server.requests.length, 1);
  });

  it("an empty reply is upstream's 'No response from OpenAI'", async () => {
    server.script({ text: "" });
    const e = await rejection(provider({ retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
    assert.match(e.message, /^No response from OpenAI/);
  });

  it("the key is in no error, message, metadata or inspection of the provider — even when the server echoes it", async () => {
    const p = provider({ retryConfig: { retries: 1 } });
    assertNoSecret(p);
    server.script({ status: 401, message: `Incorrect API key provided: ${KEY}` }, { status: 400, message: `bad request from ${KEY}` }, { text: "ok", model: "gpt-5-mini" });
    assertNoSecret(await rejection(p.generateMessage({ prompt: "Oi", history: [] })));
    assertNoSecret(await rejection(p.generateMessage({ prompt: "Oi", history: [] })));
    assertNoSecret(await p.generateMessage({ prompt: "Oi", history: [] }));
    assertNoSecret(p);
    const closed = await startOpenAIServer();
    await closed.close();
    process.env.OPENAI_BASE_URL = closed.url;
    try {
      const e = await rejection(provider({ retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
      assert.equal(e.kind, "network");
      assertNoSecret(e);
    } finally {
      process.env.OPENAI_BASE_URL = server.url;
    }
  });

  it("construction errors: upstream's for a missing key or model, ours for an option it would ignore or a retry that cannot work", () => {
    assert.throws(() => new OpenAIProvider({ apiKey: "", model: "gpt-5" }), { message: "OpenAI API key is required" });
    assert.throws(() => new OpenAIProvider({ apiKey: KEY, model: "" }), { message: "Model is required. Example: 'gpt-5' or 'gpt-5-mini'" });
    assert.throws(() => new OpenAIProvider({ apiKey: KEY, model: "gpt-5", baseUrl: "x" } as never), /unknown option "baseUrl"/);
    assert.throws(() => new OpenAIProvider({ apiKey: KEY, model: "gpt-5", retryConfig: { retries: 0 } }), /retryConfig.retries must be a whole number/);
    assert.throws(() => new OpenAIProvider({ apiKey: KEY, model: "gpt-5", retryConfig: { timeout: -1 } }), /retryConfig.timeout must be a positive number/);
    assert.throws(() => new OpenAIProvider({ apiKey: KEY, model: "gpt-5", backupModels: "gpt-4" as never }), /backupModels must be a list/);
    for (const bad of [() => new OpenAIProvider({ apiKey: KEY, model: "" })]) {
      try {
        bad();
      } catch (error) {
        assertNoSecret(error);
      }
    }
    const p = new OpenAIProvider({ apiKey: KEY, model: "gpt-5", backupModels: ["gpt-5-mini"] });
    assert.deepEqual([p.name, p.model, p.backupModels, p.capabilities.supportsNativeJsonSchema], ["openai", "gpt-5", ["gpt-5-mini"], true]);
  });
});
