// The document's "Other things worth a test", each against the real runtime with a scripted provider,
// plus the duplicate-input rule of "Replaying the same input".
import assert from "node:assert/strict";
import { falai, fakeClock, MemoryScheduler, type TurnResult } from "@falai/agent";
import { scripted, understood } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const T0_MS = Date.parse(T0);

const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  plano: { type: "enum", values: ["basico", "pro"], ask: "Pergunte qual plano." },
});

const boasVindas = f.flow({
  id: "boas-vindas",
  name: "Boas-vindas",
  on: [{ message: [] }],
  steps: [
    { id: "registrar", do: ["crm", "log"] },
    { id: "oi", prompt: "Cumprimente." },
    { id: "nome", collect: ["nome"] },
  ],
});
const retomar = f.flow({ id: "retomar", name: "Retomar", on: [{ silence: "24h" }], steps: [{ id: "p1", prompt: "Retome a conversa." }] });

function agentWith(provider: ReturnType<typeof scripted>, seen: string[] = [], clock = fakeClock(T0)) {
  return f.agent({
    name: "Ana",
    provider,
    clock,
    flows: [boasVindas, retomar],
    actions: [
      f.action("crm", (ctx) => void seen.push(`crm ${ctx.key} ${ctx.dedupeKey}`)),
      f.action("log", (ctx) => void seen.push(`log ${ctx.key} ${ctx.dedupeKey}`)),
    ],
  });
}

describe("@falai/agent: other things worth a test", () => {
  it("a silenced turn spends zero calls, phrases nothing, and still runs do steps", async () => {
    const seen: string[] = [];
    const provider = scripted({});
    const r = await agentWith(provider, seen).turn({ sessionId: "s1", message: "oi", id: "m1", silenced: "humano no comando" });
    assert.equal(r.llmCalls, 0);
    assert.equal(r.messages.length, 0);
    assert.deepEqual(provider.calls, []);
    assert.deepEqual(seen, ["crm boas-vindas#m1:registrar:1 boas-vindas#m1:registrar:1:crm", "log boas-vindas#m1:registrar:1 boas-vindas#m1:registrar:1:log"]);
    assert.ok(r.outcomes.some((o) => o.code === "silenced"));
    // The prompt step passed in silence; the collect step waits for a turn that may speak.
    assert.equal(r.session.runs[0]?.stepId, "nome");
    assert.equal(r.session.runs[0]?.status, "asking");
    assert.deepEqual(r.schedule, [], "the customer spoke last: no silence wake");
    assert.equal(r.changed, true);
  });

  it("a speak failure still returns: deferred, provider-unavailable, a :retry:<ms> key", async () => {
    const provider = scripted({ speak: [] });
    const clock = fakeClock(T0);
    const r = await agentWith(provider, [], clock).turn({ sessionId: "s1", message: "oi", id: "m1" });
    const deferred = r.outcomes.find((o) => o.status === "deferred");
    assert.equal(deferred?.code, "provider-unavailable");
    assert.equal(deferred?.kind, "speak");
    assert.equal(typeof deferred?.message, "string");
    const retryAt = T0_MS + 60_000;
    assert.deepEqual(r.schedule.map((s) => s.key), [`boas-vindas#m1:oi:retry:${retryAt}`]);
    assert.match(r.schedule[0]!.key, /:retry:\d+$/);
    assert.equal(r.schedule[0]!.at, new Date(retryAt).toISOString());
    assert.equal(r.session.runs[0]?.status, "deferred");
    assert.equal(r.messages.length, 0);
    assert.equal(r.llmCalls, 1);
  });

  it("the retry wake phrases the deferred step with the same message key", async () => {
    const clock = fakeClock(T0);
    const failing = await agentWith(scripted({ speak: [] }), [], clock).turn({ sessionId: "s1", message: "oi", id: "m1" });
    clock.advance("1m");
    const provider = scripted({ speak: [{ message: "Oi!" }] });
    const r = await agentWith(provider, [], clock).turn({ sessionId: "s1", wake: failing.schedule[0]!.key, session: failing.session });
    assert.equal(r.changed, true);
    assert.deepEqual(r.messages.map((m) => [m.key, m.text]), [["boas-vindas#m1:oi:1", "Oi!"]]);
    // A second firing of the same retry key is stale.
    const again = await agentWith(scripted({}), [], clock).turn({ sessionId: "s1", wake: failing.schedule[0]!.key, session: r.session });
    assert.equal(again.changed, false);
    assert.equal(again.outcomes[0]?.code, "stale-wake");
  });

  it("a stale wake: a key the session no longer waits for changes nothing", async () => {
    const clock = fakeClock(T0);
    const provider = scripted({ speak: [{ message: "Oi!" }], understand: [understood({ fields: { nome: "Ana" } })] });
    const agent = agentWith(provider, [], clock);
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const silenceKey = t1.schedule[0]!.key;
    assert.equal(silenceKey, `silence:retomar:s1:${T0_MS}`);
    // The customer writes again: the silence key is stale now.
    clock.advance("1h");
    const t2 = await agent.turn({ sessionId: "s1", message: "sou a Ana", id: "m2", session: t1.session });
    clock.advance("24h");
    const calls = provider.calls.length;
    const r = await agent.turn({ sessionId: "s1", wake: silenceKey, session: t2.session });
    assert.equal(r.changed, false);
    assert.deepEqual(r.outcomes.map((o) => o.code), ["stale-wake"]);
    assert.equal(r.llmCalls, 0);
    assert.equal(provider.calls.length, calls);
    assert.deepEqual(r.session, t2.session);
    const unknown = await agent.turn({ sessionId: "s1", wake: "nada:disso", session: t2.session });
    assert.equal(unknown.outcomes[0]?.code, "stale-wake");
  });

  it("actions get ctx.key and ctx.dedupeKey, the same on a replay", async () => {
    const first: string[] = [];
    const replay: string[] = [];
    const input = { sessionId: "s1", message: "oi", id: "m1" } as const;
    await agentWith(scripted({ speak: [{ message: "Oi!" }] }), first).turn(input);
    await agentWith(scripted({ speak: [{ message: "Oi!" }] }), replay).turn(input);
    assert.deepEqual(first, ["crm boas-vindas#m1:registrar:1 boas-vindas#m1:registrar:1:crm", "log boas-vindas#m1:registrar:1 boas-vindas#m1:registrar:1:log"]);
    assert.deepEqual(replay, first);
  });

  it("the prompt and tools the provider receives", async () => {
    const g = falai().fields({ pessoas: { type: "number", ask: "Pergunte quantas pessoas." } });
    const orcamento = g.tool({ name: "orcamento", description: "Calcula um orçamento", parameters: { type: "object", properties: { pessoas: { type: "number" } } }, run: () => 100 });
    const flow = g.flow({ id: "venda", name: "Venda", on: [{ message: [] }], steps: [{ id: "quantos", prompt: "Descubra o tamanho do time.", collect: ["pessoas"], tools: ["orcamento"] }] });
    const provider = scripted({ speak: [{ message: "Quantas pessoas?", pessoas: null }] });
    const agent = g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow], tools: [orcamento], instructions: "Fale português." });
    await agent.turn({ sessionId: "s1", message: "oi", id: "m1", history: [{ role: "assistant", content: "Olá" }] });
    const input = provider.inputs[0]!;
    assert.equal(input.parameters?.schemaName, "speak");
    assert.match(input.prompt, /Descubra o tamanho do time\./);
    assert.match(input.prompt, /Pergunte quantas pessoas\./);
    assert.match(input.prompt, /Fale português\./);
    assert.match(input.prompt, /You are Ana/);
    assert.deepEqual(input.tools, [{ name: "orcamento", description: "Calcula um orçamento", parameters: { type: "object", properties: { pessoas: { type: "number" } } } }]);
    assert.deepEqual(input.history, [{ role: "assistant", content: "Olá" }, { role: "user", content: "oi" }]);
    const schema = input.parameters?.jsonSchema as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.properties), ["message", "pessoas"]);
  });

  it("the understand prompt names the candidate flows, the fields and the message", async () => {
    const g = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
    const flow = g.flow({ id: "triagem", name: "Triagem", on: [{ message: ["pede um orçamento"] }], steps: [{ id: "quem", collect: ["nome"] }] });
    const provider = scripted({ understand: [understood({ flows: { triagem: 90 } })], speak: [{ message: "Qual seu nome?", nome: null }] });
    await g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] }).turn({ sessionId: "s1", message: "quanto custa?", id: "m1" });
    const input = provider.inputs[0]!;
    assert.equal(input.parameters?.schemaName, "understand");
    assert.match(input.prompt, /"quanto custa\?"/);
    assert.match(input.prompt, /triagem \(Triagem\): pede um orçamento/);
    assert.match(input.prompt, /nome \(string\)/);
    assert.equal(input.tools, undefined);
  });

  it("streaming yields one delta per provider chunk, then { done, result } equal to turn()", async () => {
    const reply = { message: "Oi! Tudo bem?" };
    const chunks = (text: string) => [text.slice(0, 3), text.slice(3, 8), text.slice(8)];
    const streamed = agentWith(scripted({ speak: [reply] }, { chunks })).turnStream({ sessionId: "s1", message: "oi", id: "m1" });
    const events = [];
    for await (const e of streamed) events.push(e);
    const plain = await agentWith(scripted({ speak: [reply] }, { chunks })).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(events.slice(0, -1).map((e) => (e.done ? null : e.delta)), ["Oi!", " Tudo", " bem?"]);
    assert.deepEqual(events.slice(0, -1).map((e) => (e.done ? null : e.accumulated)), ["Oi!", "Oi! Tudo", "Oi! Tudo bem?"]);
    assert.ok(events.slice(0, -1).every((e) => !e.done && e.key === "boas-vindas#m1:oi:1"));
    const last = events.at(-1)!;
    assert.ok(last.done);
    assert.deepEqual((last as { result: TurnResult }).result, plain);
  });

  it("a duplicate message id on a version that recorded it is ignored: duplicate-input", async () => {
    const provider = scripted({ speak: [{ message: "Oi!" }] });
    const agent = agentWith(provider);
    const first = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const again = await agent.turn({ sessionId: "s1", message: "oi", id: "m1", session: first.session });
    assert.equal(again.changed, false);
    assert.deepEqual(again.outcomes.map((o) => o.code), ["duplicate-input"]);
    assert.equal(again.llmCalls, 0);
    assert.deepEqual(again.messages, []);
    assert.deepEqual(again.schedule, []);
    assert.deepEqual(again.session, first.session);
  });

  it("the scheduler fires the silence wake; the silence flow speaks", async () => {
    const clock = fakeClock(T0);
    const scheduler = new MemoryScheduler();
    const provider = scripted({ speak: [{ message: "Oi!" }, { message: "Ainda por aí?" }] });
    const agent = agentWith(provider, [], clock);
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    t1.schedule.forEach((e) => scheduler.add(e));
    clock.advance("24h");
    const [due] = scheduler.take(clock.now());
    const t2 = await agent.turn({ sessionId: "s1", wake: due!.key, session: t1.session });
    assert.deepEqual(t2.started.map((s) => [s.runId, s.trigger]), [[`retomar#${T0_MS}`, "silence"]]);
    assert.deepEqual(t2.messages.map((m) => m.text), ["Ainda por aí?"]);
    assert.equal(t2.session.version, 2);
    assert.equal(scheduler.size, 0);
  });
});
