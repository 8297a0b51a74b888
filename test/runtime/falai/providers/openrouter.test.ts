// OpenRouterProvider against a local OpenAI-compatible server named by OPENROUTER_BASE_URL (OPENAI_BASE_URL points
// elsewhere and must not be used): its headers, max_tokens, a streamed structured reply through a turn, and
// failover on OpenRouter's "capacity" message.
import assert from "node:assert/strict";
import { OpenRouterProvider } from "@falai/agent";
import { startOpenAIServer, type VendorServer } from "../../../support/vendor-servers/openai";
import { agentFor, KEY, rejection, useEnv } from "./support";

let server: VendorServer;
let decoy: VendorServer;

describe("OpenRouterProvider (local OpenAI-compatible server)", () => {
  before(async () => {
    server = await startOpenAIServer();
    decoy = await startOpenAIServer();
  });
  after(async () => {
    await server.close();
    await decoy.close();
  });
  useEnv(() => ({ OPENROUTER_BASE_URL: server.url, OPENAI_BASE_URL: decoy.url, OPENAI_ORG_ID: "org_from_env" }));
  beforeEach(() => (server.requests.length = 0));

  it("reaches OPENROUTER_BASE_URL with siteUrl / siteName as HTTP-Referer / X-Title and maxOutputTokens as max_tokens", async () => {
    server.script({ text: "Oi!" });
    const p = new OpenRouterProvider({ apiKey: KEY, model: "anthropic/claude-sonnet-4.5", siteUrl: "https://example.test", siteName: "Minha App" });
    const out = await p.generateMessage({ prompt: "Oi", history: [], parameters: { maxOutputTokens: 64 } });
    assert.equal(out.message, "Oi!");
    assert.equal(out.metadata?.provider, "openrouter");
    const [req] = server.requests;
    assert.equal(req!.headers["http-referer"], "https://example.test");
    assert.equal(req!.headers["x-title"], "Minha App");
    assert.equal(req!.headers["openai-organization"], undefined, "OPENAI_ORG_ID is OpenAI's, not OpenRouter's");
    assert.equal(req!.body.max_tokens, 64);
    assert.equal(decoy.connections, 0);
  });

  it("a streamed structured reply through turnStream", async () => {
    server.script({ text: '{"message":"Quantas pessoas?","pessoas":null}' });
    const deltas: string[] = [];
    for await (const chunk of agentFor(new OpenRouterProvider({ apiKey: KEY, model: "openai/gpt-5-mini" })).stream("quantos")) if ("delta" in chunk) deltas.push(chunk.delta);
    assert.equal(deltas.join(""), "Quantas pessoas?");
  });

  it("'capacity' in an error moves to the backup model (OpenRouter's own overload signal); a 400 does not", async () => {
    server.script({ status: 400, message: "No endpoints available: at capacity" }, { text: "Do reserva." });
    const p = new OpenRouterProvider({ apiKey: KEY, model: "a/primary", backupModels: ["b/backup"], retryConfig: { retries: 1 } });
    const out = await p.generateMessage({ prompt: "Oi", history: [] });
    assert.deepEqual([out.message, out.metadata?.model], ["Do reserva.", "b/backup"]);
    server.script({ status: 400, message: "Invalid model" });
    const e = await rejection(p.generateMessage({ prompt: "Oi", history: [] }));
    assert.equal(e.kind, "invalid");
    assert.deepEqual(server.requests.map((r) => r.model), ["a/primary", "b/backup", "a/primary"]);
  });

  it("construction errors name OpenRouter", () => {
    assert.throws(() => new OpenRouterProvider({ apiKey: "", model: "x/y" }), { message: "OpenRouter API key is required" });
    assert.throws(() => new OpenRouterProvider({ apiKey: KEY, model: "x/y", siteName: 3 as never }), /siteName must be a string/);
  });
});
