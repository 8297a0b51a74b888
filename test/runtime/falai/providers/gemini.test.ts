// GeminiProvider against a local server speaking the Gemini API (GOOGLE_GEMINI_BASE_URL — read by @google/genai
// itself — points the real SDK at it): the provider contract (contract.ts), then Gemini's wire format — the key
// header, systemInstruction, contents with functionCall / functionResponse parts and thought signatures,
// responseJsonSchema (and JSON by instruction beside tools), streamGenerateContent?alt=sse, RetryInfo.
import assert from "node:assert/strict";
import { GeminiProvider } from "@falai/agent";
import { geminiRateLimit, startGeminiServer } from "../../../support/vendor-servers/gemini";
import { providerContract, vendorSuite, type ContractSpec } from "./contract";
import { agentFor, KEY } from "./support";

const spec: ContractSpec = {
  label: "Gemini", name: "gemini", example: "'models/gemini-2.5-pro'",
  start: startGeminiServer,
  env: (url) => ({ GOOGLE_GEMINI_BASE_URL: url, GOOGLE_GENAI_USE_VERTEXAI: undefined }),
  make: (extra = {}) => new GeminiProvider({ apiKey: KEY, model: "gemini-2.5-flash", ...extra }),
  construct: (options) => new GeminiProvider(options as never),
  rateLimited: (ms) => geminiRateLimit(ms),
  serverError: () => ({ status: 500, body: { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0s" }] } } }),
  eventsToFirstText: 1,
  checkToolResult(second) {
    const contents = second.body.contents;
    assert.deepEqual(contents.map((c: { role: string }) => c.role), ["model", "user"]);
    assert.deepEqual(contents[0].parts, [{ functionCall: { name: "orcamento", args: { pessoas: 3 } }, thoughtSignature: "skip_thought_signature_validator" }]);
    assert.deepEqual(contents[1].parts[0], { functionResponse: { name: "orcamento", response: { output: { total: 1500 } } } });
    assert.ok("text" in contents[1].parts[1], "the prompt follows the function response in the same user turn");
  },
};

describe("GeminiProvider (local Gemini-speaking server)", () => {
  const server = vendorSuite(spec);
  providerContract(spec, server);

  describe("Gemini's wire format", () => {
    beforeEach(() => (server().requests.length = 0));

    it("the key as x-goog-api-key; system and history as systemInstruction and contents; usage comes back", async () => {
      server().script({ text: "Olá!", usage: { prompt: 12, completion: 3, cached: 8 }, model: "gemini-2.5-flash-001" });
      const out = await spec.make({ model: "models/gemini-2.5-pro", config: { temperature: 0.3, systemInstruction: "Seja breve." } }).generateMessage({
        system: "Você é a Ana.", prompt: "Cumprimente.", history: [{ role: "user", content: "oi" }, { role: "assistant", content: "Oi!" }],
      });
      assert.equal(out.message, "Olá!");
      assert.deepEqual(out.metadata, { provider: "gemini", model: "models/gemini-2.5-pro", responseModel: "gemini-2.5-flash-001", promptTokens: 12, completionTokens: 3, cachedInputTokens: 8, finishReason: "STOP" });
      const [req] = server().requests;
      assert.equal(req!.path, "/v1beta/models/gemini-2.5-pro:generateContent");
      assert.equal(req!.headers["x-goog-api-key"], KEY);
      assert.deepEqual(req!.body.systemInstruction, { parts: [{ text: "Seja breve." }, { text: "Você é a Ana." }] });
      assert.deepEqual(req!.body.contents, [{ role: "user", parts: [{ text: "oi" }] }, { role: "model", parts: [{ text: "Oi!" }] }, { role: "user", parts: [{ text: "Cumprimente." }] }]);
      assert.equal(req!.body.generationConfig.temperature, 0.3);
    });

    it("a structured call without tools sends responseJsonSchema; beside tools the JSON is asked for in systemInstruction", async () => {
      server().script({ text: '{"message":"Oi","pessoas":null}' });
      const schema = { type: "object", properties: { message: { type: "string" }, pessoas: { type: ["number", "null"] } }, required: ["message", "pessoas"], additionalProperties: false };
      const out = await spec.make().generateMessage({ prompt: "Oi", history: [], parameters: { schemaName: "speak", jsonSchema: schema } });
      assert.deepEqual([out.message, out.structured], ["Oi", { message: "Oi", pessoas: null }]);
      const plain = server().requests[0]!.body.generationConfig;
      assert.equal(plain.responseMimeType, "application/json");
      assert.deepEqual(plain.responseJsonSchema, schema);
      server().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 2 } }] }, { text: '{"message":"1000."}' });
      await agentFor(spec.make()).start("orc");
      const withTools = server().requests[1]!.body;
      assert.equal(withTools.generationConfig?.responseMimeType, undefined);
      assert.match(withTools.systemInstruction.parts.at(-1).text, /^Reply with one JSON object and nothing else/);
      assert.deepEqual(withTools.tools, [{ functionDeclarations: [{ name: "orcamento", description: "Calcula o orçamento para o número de pessoas", parametersJsonSchema: { type: "object", properties: { pessoas: { type: "number" } }, required: ["pessoas"] } }] }]);
    });

    it("a function call's thought signature goes back with it in the next round (Gemini 3 requires it)", async () => {
      server().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 4 }, signature: "c2lnLTE=" }] }, { text: '{"message":"2000."}' });
      const r = await agentFor(spec.make({ model: "gemini-3-flash" })).start("orc");
      assert.equal(r.messages[0]?.text, "2000.");
      assert.deepEqual(server().requests[1]!.body.contents[0].parts[0], { functionCall: { name: "orcamento", args: { pessoas: 4 } }, thoughtSignature: "c2lnLTE=" });
    });

    it("streams from streamGenerateContent?alt=sse", async () => {
      server().script({ text: "Oi, tudo bem?" });
      const deltas: string[] = [];
      for await (const c of spec.make().generateMessageStream!({ prompt: "Oi", history: [] })) if (c.delta) deltas.push(c.delta);
      assert.equal(deltas.join(""), "Oi, tudo bem?");
      assert.deepEqual([server().requests[0]!.path, server().requests[0]!.query.alt], ["/v1beta/models/gemini-2.5-flash:streamGenerateContent", "sse"]);
    });

    it("a per-day quota with a RetryInfo is a quota with a reset (the step waits for it); a 503 fails over", async () => {
      server().script({ status: 429, body: { error: { code: 429, message: "Quota exceeded for metric generate_content_requests_per_day", status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerDayPerProjectPerModel" }] }, { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3600s" }] } } });
      const r = await agentFor(spec.make({ retryConfig: { retries: 1 } })).start("quantos");
      assert.deepEqual(r.outcomes.map((o) => [o.status, o.code]), [["deferred", "provider-quota"]]);
      server().script({ status: 503, message: "The model is overloaded." }, { text: "Do reserva." });
      const out = await spec.make({ backupModels: ["gemini-2.5-flash-lite"], retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] });
      assert.deepEqual([out.message, out.metadata?.model], ["Do reserva.", "gemini-2.5-flash-lite"]);
    });
  });
});
