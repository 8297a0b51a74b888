// OpenAIProvider against a local server speaking OpenAI's Chat Completions (OPENAI_BASE_URL points the real `openai`
// SDK at it): the provider contract (contract.ts), then what OpenAI's wire format must carry — messages, the
// Organization header, a strict json_schema response_format, function tools and tool messages, stream_options.
import assert from "node:assert/strict";
import { OpenAIProvider } from "@falai/agent";
import { startOpenAIServer } from "../../../support/vendor-servers/openai";
import { providerContract, vendorSuite, type ContractSpec } from "./contract";
import { agentFor, KEY } from "./support";

const spec: ContractSpec = {
  label: "OpenAI", name: "openai", example: "'gpt-5' or 'gpt-5-mini'",
  start: startOpenAIServer,
  env: (url) => ({ OPENAI_BASE_URL: url, OPENAI_ORG_ID: undefined, OPENAI_PROJECT_ID: undefined }),
  make: (extra = {}) => new OpenAIProvider({ apiKey: KEY, model: "gpt-5-mini", ...extra }),
  construct: (options) => new OpenAIProvider(options as never),
  rateLimited: (ms) => ({ status: 429, message: "Rate limit reached", headers: { "retry-after-ms": String(ms) } }),
  serverError: () => ({ status: 500, message: "The server had an error", headers: { "retry-after-ms": "0" } }),
  eventsToFirstText: 2,
  checkToolResult(second) {
    assert.deepEqual(second.body.messages.map((m: { role: string }) => m.role), ["system", "assistant", "tool", "user"]);
    assert.deepEqual(second.body.messages[1], { role: "assistant", content: null, tool_calls: [{ id: "call-1-0", type: "function", function: { name: "orcamento", arguments: '{"pessoas":3}' } }] });
    assert.deepEqual(second.body.messages[2], { role: "tool", tool_call_id: "call-1-0", content: '{"total":1500}' });
  },
};

describe("OpenAIProvider (local OpenAI-speaking server)", () => {
  const server = vendorSuite(spec);
  providerContract(spec, server);

  describe("OpenAI's wire format", () => {
    beforeEach(() => (server().requests.length = 0));

    it("system, history and prompt go out as chat messages with the key and the Organization header; usage comes back", async () => {
      server().script({ text: "Olá!", usage: { prompt: 12, completion: 3, cached: 4 }, model: "gpt-5-mini-2025-08-07" });
      const out = await spec.make({ organization: "org_abc", config: { temperature: 0.2 } }).generateMessage({
        system: "Você é a Ana.", prompt: "Cumprimente.", history: [{ role: "user", content: "oi" }, { role: "assistant", content: "Oi!" }],
      });
      assert.equal(out.message, "Olá!");
      assert.deepEqual(out.metadata, { provider: "openai", model: "gpt-5-mini", responseModel: "gpt-5-mini-2025-08-07", promptTokens: 12, completionTokens: 3, cachedInputTokens: 4, finishReason: "stop" });
      const [req] = server().requests;
      assert.equal(req!.path, "/v1/chat/completions");
      assert.equal(req!.headers.authorization, `Bearer ${KEY}`);
      assert.equal(req!.headers["openai-organization"], "org_abc");
      assert.deepEqual(req!.body, {
        temperature: 0.2, model: "gpt-5-mini",
        messages: [{ role: "system", content: "Você é a Ana." }, { role: "user", content: "oi" }, { role: "assistant", content: "Oi!" }, { role: "user", content: "Cumprimente." }],
      });
    });

    it("a structured call sends a strict json_schema response_format named after schemaName; tools as function tools", async () => {
      server().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 3 } }] }, { text: '{"message":"Total 1500."}' });
      await agentFor(spec.make()).start("orc");
      const first = server().requests[0]!.body;
      assert.deepEqual(first.response_format.type, "json_schema");
      assert.deepEqual([first.response_format.json_schema.name, first.response_format.json_schema.strict], ["speak", true]);
      assert.deepEqual(first.tools, [{ type: "function", function: { name: "orcamento", description: "Calcula o orçamento para o número de pessoas", parameters: { type: "object", properties: { pessoas: { type: "number" } }, required: ["pessoas"] } } }]);
    });

    it("a schema that is not closed goes out with strict false (OpenAI refuses open schemas in strict mode)", async () => {
      server().script({ text: '{"nome":"Ana"}' });
      const out = await spec.make().generateMessage({ prompt: "Nome?", history: [], parameters: { schemaName: "pessoa", jsonSchema: { type: "object", properties: { nome: { type: "string" } } }, maxOutputTokens: 50 } });
      assert.deepEqual(out.structured, { nome: "Ana" });
      assert.equal(server().requests[0]!.body.response_format.json_schema.strict, false);
      assert.equal(server().requests[0]!.body.max_completion_tokens, 50);
    });

    it("a stream asks for the usage in its last chunk", async () => {
      server().script({ text: "Oi." });
      for await (const _ of spec.make().generateMessageStream!({ prompt: "Oi", history: [] })) void _;
      assert.deepEqual([server().requests[0]!.body.stream, server().requests[0]!.body.stream_options], [true, { include_usage: true }]);
    });
  });
});
