// The behaviour every provider owes, run against its vendor's local server: a tool round trip and a streamed reply
// through real turns, a rate limit tried again, failover to a backup model, fail-fast on 401 as the turn's
// provider-auth, a rate limit that outlasts every attempt deferring the step, per-attempt timeouts (streams too),
// the caller's abort, upstream's "No response from <vendor>", the key in no error, and the construction errors.
// Each vendor's own file adds what its wire format must look like.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { ProviderError, type AiProvider } from "@falai/agent";
import type { ErrorReply, RecordedRequest, VendorServer } from "../../../support/vendor-servers/server";
import { agentFor, assertNoSecret, KEY, rejection, useEnv } from "./support";

export type Made = AiProvider & { model: string };

export interface ContractSpec {
  label: string;
  name: string;
  start(): Promise<VendorServer>;
  /** The environment that points the SDK at `url`. */
  env(url: string): Record<string, string | undefined>;
  make(extra?: Record<string, unknown>): Made;
  /** The constructor, for the construction errors. */
  construct(options: Record<string, unknown>): Made;
  /** upstream's example models in "Model is required. Example: …". */
  example: string;
  /** A rate-limit error telling the client to retry after `ms` (a header, or Gemini's RetryInfo). */
  rateLimited(ms: number): ErrorReply;
  /** A 500 that asks for no wait, so failover tests run fast. */
  serverError(): ErrorReply;
  /** How many SSE events of a streamed text reply it takes to carry its first piece of text. */
  eventsToFirstText: number;
  /** Vendor-specific checks of the second request of the tool round trip (the tool result went back). */
  checkToolResult(second: RecordedRequest): void;
}

export function providerContract(spec: ContractSpec, server: () => VendorServer): void {
  const s = () => server();

  describe(`${spec.label}: the provider contract`, () => {
    beforeEach(() => {
      s().requests.length = 0;
      assert.equal(s().remaining(), 0, "the previous test used up its script");
    });

    it("a tool call round trip through agent.turn: the call, the tool's result sent back, then the reply", async () => {
      s().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 3 } }] }, { text: '{"message":"O total é R$ 1500."}' });
      const r = await agentFor(spec.make()).start("orc");
      assert.deepEqual([r.messages.map((m) => m.text), r.session.data.orcamento, r.llmCalls], [["O total é R$ 1500."], 1500, 2]);
      spec.checkToolResult(s().requests[1]!);
    });

    it("streaming through turnStream: the envelope's message arrives as deltas of its text alone; usage is summed", async () => {
      s().script({ text: '{"message":"Olá! Para quantas pessoas?","pessoas":null}', chunks: ['{"mess', 'age":"Olá! Pa', "ra quantas", ' pessoas?","pessoas":null}'], usage: { prompt: 20, completion: 9 } });
      const deltas: string[] = [];
      let result: any;
      for await (const chunk of agentFor(spec.make()).stream("quantos")) {
        if ("delta" in chunk) deltas.push(chunk.delta);
        else result = chunk.result;
      }
      assert.equal(deltas.join(""), "Olá! Para quantas pessoas?");
      assert.ok(deltas.length >= 3 && deltas.every((d) => !d.includes("{") && !d.includes('"')), inspect(deltas));
      assert.deepEqual(result.messages.map((m: { text: string }) => m.text), ["Olá! Para quantas pessoas?"]);
      assert.deepEqual(result.usage, { promptTokens: 20, completionTokens: 9, cachedInputTokens: 0 });
    });

    it("a streamed tool round trip: the tool call is assembled from its pieces, the next round streams the reply", async () => {
      s().script({ toolCalls: [{ name: "orcamento", arguments: { pessoas: 2 } }] }, { text: '{"message":"Total: 1000."}' });
      const deltas: string[] = [];
      let result: any;
      for await (const chunk of agentFor(spec.make()).stream("orc")) {
        if ("delta" in chunk) deltas.push(chunk.delta);
        else result = chunk.result;
      }
      assert.deepEqual([deltas.join(""), result.session.data.orcamento], ["Total: 1000.", 1000]);
    });

    it("a rate limit is tried again on the same model after the wait the server names, and the next attempt answers", async () => {
      s().script(spec.rateLimited(20), { text: "Depois do limite." });
      const out = await spec.make().generateMessage({ prompt: "Oi", history: [] });
      assert.equal(out.message, "Depois do limite.");
      assert.deepEqual(s().requests.map((r) => r.model), [spec.make().model, spec.make().model]);
    });

    it("a 500 on the primary model at every attempt, then the first backup answers; metadata.model names it", async () => {
      for (let i = 0; i < 4; i++) s().script((req) => (req.model === "primary-model" ? spec.serverError() : { text: "Sou o reserva." }));
      const out = await spec.make({ model: "primary-model", backupModels: ["backup-model", "never-model"] }).generateMessage({ prompt: "Oi", history: [] });
      assert.deepEqual([out.message, out.metadata?.model, out.metadata?.provider], ["Sou o reserva.", "backup-model", spec.name]);
      assert.deepEqual(s().requests.map((r) => r.model), ["primary-model", "primary-model", "primary-model", "backup-model"]);
    });

    it("a stream fails over too, before its first chunk; its last chunk's metadata names the model that answered", async () => {
      s().script(spec.serverError(), { text: "Do reserva, em partes." });
      const chunks = [];
      for await (const c of spec.make({ backupModels: ["backup-model"], retryConfig: { retries: 1 } }).generateMessageStream!({ prompt: "Oi", history: [] })) chunks.push(c);
      const last = chunks.at(-1)!;
      assert.deepEqual([last.done, last.accumulated, last.metadata?.model], [true, "Do reserva, em partes.", "backup-model"]);
      assert.deepEqual(s().requests.map((r) => [r.model, r.stream]), [[spec.make().model, true], ["backup-model", true]]);
    });

    it("when every model fails the last failure is thrown, classified; in a turn a rate limit left over defers the step", async () => {
      s().script(spec.rateLimited(0), spec.rateLimited(0));
      const e = await rejection(spec.make({ backupModels: ["backup-model"], retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
      assert.ok(e instanceof ProviderError);
      assert.deepEqual([e.kind, e.status, e.provider, e.isTransient], ["rate", 429, spec.name, true]);
      assert.match(e.message, /backup-model: 429 /);
      s().script(spec.rateLimited(0), spec.rateLimited(0), spec.rateLimited(0));
      const r = await agentFor(spec.make()).start("quantos");
      assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["collect", "deferred", "provider-unavailable"]]);
      assert.equal(r.schedule.length, 1);
    });

    it("a 401 fails at once (no retry, no backup) as provider-auth, and the turn's outcome says so", async () => {
      s().script({ status: 401, message: "invalid x-api-key" });
      const e = await rejection(spec.make({ backupModels: ["backup-model"] }).generateMessage({ prompt: "Oi", history: [] }));
      assert.deepEqual([e.name, e.kind, e.status], ["ProviderError", "auth", 401]);
      assert.equal(s().requests.length, 1);
      s().script({ status: 401, message: "invalid x-api-key" });
      const r = await agentFor(spec.make({ backupModels: ["backup-model"] })).start("quantos");
      assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["collect", "failed", "provider-auth"]]);
      assert.deepEqual([r.ended.map((x) => x.reason), s().requests.length], [["failed"], 2]);
    });

    it("each attempt has its own timeout: attempts that never answer end as a timeout, streamed or not", async () => {
      s().script({ hang: true }, { hang: true });
      const e = await rejection(spec.make({ retryConfig: { timeout: 150, retries: 2 } }).generateMessage({ prompt: "Oi", history: [] }));
      assert.deepEqual([e.kind, e.isTransient, s().requests.length], ["timeout", true, 2]);
      assert.match(e.message, /no answer within 150 ms/);
      s().script({ hang: true });
      const p = spec.make({ retryConfig: { timeout: 150, retries: 1 } });
      const streamed = await rejection((async () => {
        for await (const _ of p.generateMessageStream!({ prompt: "Oi", history: [] })) void _;
      })());
      assert.equal(streamed.kind, "timeout");
    });

    it("a stream that stalls after text reached the caller ends as a timeout, without another attempt", async () => {
      s().script({ text: "Primeira parte e o resto nunca chega.", chunks: ["Primeira parte", " e o resto nunca chega."], stallAfterEvents: spec.eventsToFirstText });
      const p = spec.make({ retryConfig: { timeout: 300, retries: 3 } });
      const deltas: string[] = [];
      const e = await rejection((async () => {
        for await (const c of p.generateMessageStream!({ prompt: "Oi", history: [] })) deltas.push(c.delta);
      })());
      assert.deepEqual([e.kind, deltas.join("").startsWith("Primeira"), s().requests.length], ["timeout", true, 1]);
    });

    it("the caller's abort signal ends the call at once, without retries", async () => {
      s().script({ hang: true });
      const controller = new AbortController();
      const pending = spec.make().generateMessage({ prompt: "Oi", history: [], signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      const e = await rejection(pending);
      assert.deepEqual([e.kind, s().requests.length], ["aborted", 1]);
    });

    it(`an empty reply is upstream's "No response from ${spec.label}"`, async () => {
      s().script({ text: "" });
      const e = await rejection(spec.make({ retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
      assert.match(e.message, new RegExp(`^No response from ${spec.label}`));
    });

    it("the key is in no error, metadata or inspection of the provider, even when the server echoes it or is down", async () => {
      const p = spec.make({ retryConfig: { retries: 1 } });
      assertNoSecret(p);
      s().script({ status: 401, message: `Invalid key: ${KEY}` }, { status: 400, message: `bad request from ${KEY}` }, { text: "ok" });
      assertNoSecret(await rejection(p.generateMessage({ prompt: "Oi", history: [] })));
      assertNoSecret(await rejection(p.generateMessage({ prompt: "Oi", history: [] })));
      assertNoSecret(await p.generateMessage({ prompt: "Oi", history: [] }));
      assertNoSecret(p);
      const down = await spec.start();
      await down.close();
      const saved = Object.fromEntries(Object.keys(spec.env(down.url)).map((k) => [k, process.env[k]]));
      Object.assign(process.env, spec.env(down.url));
      try {
        const e = await rejection(spec.make({ retryConfig: { retries: 1 } }).generateMessage({ prompt: "Oi", history: [] }));
        assert.equal(e.kind, "network");
        assertNoSecret(e);
      } finally {
        Object.assign(process.env, saved);
      }
    });

    it("construction errors: upstream's for a missing key or model, ours for an option it would ignore or a retry that cannot work", () => {
      assert.throws(() => spec.construct({ apiKey: "", model: "m" }), { message: `${spec.label} API key is required` });
      assert.throws(() => spec.construct({ apiKey: KEY, model: "" }), { message: `Model is required. Example: ${spec.example}` });
      assert.throws(() => spec.construct({ apiKey: KEY, model: "m", baseUrl: "x" }), /unknown option "baseUrl"/);
      assert.throws(() => spec.construct({ apiKey: KEY, model: "m", retryConfig: { retries: 0 } }), /retryConfig.retries must be a whole number/);
      assert.throws(() => spec.construct({ apiKey: KEY, model: "m", retryConfig: { timeout: -1 } }), /retryConfig.timeout must be a positive number/);
      assert.throws(() => spec.construct({ apiKey: KEY, model: "m", backupModels: "other" }), /backupModels must be a list/);
      const p = spec.construct({ apiKey: KEY, model: "m1", backupModels: ["m2"] });
      assert.deepEqual([p.name, p.model, (p as unknown as { backupModels: string[] }).backupModels], [spec.name, "m1", ["m2"]]);
    });
  });
}

/** The server for a vendor's test file, started before its suites, with its environment set. */
export function vendorSuite(spec: Pick<ContractSpec, "start" | "env">): () => VendorServer {
  let server: VendorServer;
  before(async () => {
    server = await spec.start();
  });
  after(() => server.close());
  useEnv(() => spec.env(server.url));
  return () => server;
}
