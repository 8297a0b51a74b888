// AnthropicProvider against a local server speaking Anthropic's Messages API (ANTHROPIC_BASE_URL points the real
// @anthropic-ai/sdk at it): the provider contract (contract.ts), then Anthropic's wire format — system blocks with
// the cached half and the JSON instruction, alternating turns with tool_use / tool_result blocks, max_tokens, and
// failover on its 529.
import assert from "node:assert/strict";
import { AnthropicProvider } from "@falai/agent";
import { startAnthropicServer } from "../../../support/vendor-servers/anthropic";
import { providerContract, vendorSuite, type ContractSpec } from "./contract";
import { agentFor, KEY } from "./support";

const spec: ContractSpec = {
  label: "Anthropic", name: "anthropic", example: "'claude-sonnet-4-5' or 'claude-opus-4-1'",
  start: startAnthropicServer,
  env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: undefined }),
  make: (extra = {}) => new AnthropicProvider({ apiKey: KEY, model: "claude-sonnet-4-5", ...extra }),
  construct: (options) => new AnthropicProvider(options as never),
  rateLimited: (ms) => ({ status: 429, message: "Number of requests has exceeded your rate limit", headers: { "retry-after-ms": String(ms) } }),
  serverError: () => ({ status: 500, message: "Internal server error", headers: { "retry-after-ms": "0" } }),
  eventsToFirstText: 4,
  checkToolResult(second) {
    const messages = second.body.messages;
    assert.deepEqual(messages.map((m: { role: string }) => m.role), ["assistant", "user"]);
    assert.deepEqual(messages[0].content, [{ type: "tool_use", id: "call-1-0", name: "orcamento", input: { pessoas: 3 } }]);
    assert.deepEqual(messages[1].content[0], { type: "tool_result", tool_use_id: "call-1-0", content: '{"total":1500}' });
    assert.equal(messages[1].content[1].type, "text", "the prompt follows the tool results in the same user turn");
  },
};

describe("AnthropicProvider (local Anthropic-speaking server)", () => {
  const server = vendorSuite(spec);
  providerContract(spec, server);

  describe("Anthropic's wire format", () => {
    beforeEach(() => (server().requests.length = 0));

    it("the key as a bearer token; system blocks (the call's cached); history in alternating turns; max_tokens 4096 by default", async () => {
      server().script({ text: "Olá!", usage: { prompt: 12, completion: 3, cached: 100 } });
      const out = await spec.make({ config: { temperature: 0.3, system: "Seja breve." } }).generateMessage({
        system: "Você é a Ana.", prompt: "Cumprimente.", history: [{ role: "user", content: "oi" }, { role: "user", content: "tudo bem?" }, { role: "assistant", content: "Oi!" }],
      });
      assert.equal(out.message, "Olá!");
      assert.deepEqual(out.metadata, { provider: "anthropic", model: "claude-sonnet-4-5", promptTokens: 112, completionTokens: 3, cachedInputTokens: 100, finishReason: "end_turn" });
      const [req] = server().requests;
      assert.equal(req!.headers.authorization, `Bearer ${KEY}`); // this SDK version sends the key as a bearer token
      assert.ok(req!.headers["anthropic-version"]);
      assert.deepEqual(req!.body.system, [{ type: "text", text: "Seja breve." }, { type: "text", text: "Você é a Ana.", cache_control: { type: "ephemeral" } }]);
      assert.deepEqual(req!.body.messages, [
        { role: "user", content: [{ type: "text", text: "oi" }, { type: "text", text: "tudo bem?" }] },
        { role: "assistant", content: [{ type: "text", text: "Oi!" }] },
        { role: "user", content: [{ type: "text", text: "Cumprimente." }] },
      ]);
      assert.deepEqual([req!.body.max_tokens, req!.body.temperature], [4096, 0.3]);
    });

    it("a structured call asks for JSON in the system prompt with the schema (no native schema mode); a fenced reply still parses", async () => {
      server().script({ text: '```json\n{"message":"Para quantas pessoas?","pessoas":null}\n```' });
      const r = await agentFor(spec.make({ config: { max_tokens: 1000 } })).start("quantos");
      assert.deepEqual(r.messages.map((m) => m.text), ["Para quantas pessoas?"]);
      const req = server().requests[0]!.body;
      const instruction = req.system.at(-1).text as string;
      assert.match(instruction, /^Reply with one JSON object and nothing else/);
      assert.ok(instruction.includes('"required":["message","pessoas"]'));
      assert.equal(req.response_format, undefined);
      assert.equal(req.max_tokens, 1000);
    });

    it("tools as input_schema tools", async () => {
      server().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 1 } }] }, { text: '{"message":"500."}' });
      await agentFor(spec.make()).start("orc");
      assert.deepEqual(server().requests[0]!.body.tools, [{ name: "orcamento", description: "Calcula o orçamento para o número de pessoas", input_schema: { type: "object", properties: { pessoas: { type: "number" } }, required: ["pessoas"] } }]);
    });

    it("a 529 (overloaded_error) moves to the backup model", async () => {
      server().script({ status: 529, message: "Overloaded" }, { text: "Do reserva." });
      const out = await spec.make({ backupModels: ["claude-haiku-4-5"], retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] });
      assert.deepEqual([out.message, out.metadata?.model], ["Do reserva.", "claude-haiku-4-5"]);
    });
  });
});
