// Replay determinism mid-session, usage sums, mention lists, and streaming around tool calls and
// providers that cannot stream.
import assert from "node:assert/strict";
import { falai, fakeClock, type AiProvider, type TurnStreamEvent } from "@falai/agent";
import { scripted, understood } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({ nome: { type: "string" }, empresa: { type: "string" }, trecho: { type: "string" } });
const triagem = f.flow({
  id: "triagem",
  name: "Triagem",
  on: [{ message: ["quer saber como funciona"] }],
  steps: [{ id: "quem", collect: ["nome", "empresa"] }, { id: "w", wait: "1d", else: "end" }, { id: "tchau", prompt: "Tchau." }],
});
const retomar = f.flow({ id: "retomar", name: "Retomar", on: [{ silence: "24h" }], steps: [{ id: "p1", prompt: "Retome." }] });

describe("@falai/agent: replay determinism", () => {
  it("the same input on the same session version gives the same result, mid-session", async () => {
    const clock = fakeClock(T0);
    const first = scripted({ understand: [understood({ fields: { nome: "Ana" } })], speak: [{ message: "De qual empresa?", empresa: null }] });
    const t1 = await f.agent({ name: "Ana", provider: first, clock, flows: [triagem, retomar] }).turn({ sessionId: "s1", message: "sou a Ana", id: "m1" });
    clock.advance("2h");
    const second = () => scripted({ understand: [understood({ fields: { empresa: "Acme" } })], speak: [{ message: "Obrigada" }] });
    const a = await f.agent({ name: "Ana", provider: second(), clock, flows: [triagem, retomar] }).turn({ sessionId: "s1", message: "Acme", id: "m2", session: t1.session });
    const b = await f.agent({ name: "Ana", provider: second(), clock, flows: [triagem, retomar] }).turn({ sessionId: "s1", message: "Acme", id: "m2", session: t1.session });
    assert.deepEqual(b, a);
    assert.equal(a.session.runs[0]?.status, "waiting");
    assert.deepEqual(a.schedule.map((s) => s.key), [`triagem#m1:w:${Date.parse(T0) + 2 * 3_600_000 + 86_400_000}`]);
  });

  it("usage from the provider is summed over the turn's calls", async () => {
    const provider = scripted({
      understand: [{ ...understood({ fields: { nome: "Ana" } }), usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } }],
      speak: [{ message: "Empresa?", empresa: null, usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 } }],
    });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem] }).turn({ sessionId: "s1", message: "sou a Ana", id: "m1" });
    assert.deepEqual(r.usage, { inputTokens: 30, outputTokens: 7, totalTokens: 37 });
    const none = await f.agent({ name: "Ana", provider: scripted({ understand: [understood()], speak: [{ message: "Nome?" }] }), clock: fakeClock(T0), flows: [triagem] }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal("usage" in none, false);
  });

  it("a mention trigger may list several phrasings", async () => {
    const concorrente = f.flow({ id: "concorrente", name: "C", on: [{ mention: ["a Acme", "um concorrente"], extract: ["trecho"] }], steps: [{ id: "p", prompt: "P." }] });
    const provider = scripted({ understand: [understood({ mentions: { concorrente: true }, extract: { concorrente: { trecho: "Acme" } } })], speak: [{ message: "Sobre a Acme..." }] });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [concorrente] }).turn({ sessionId: "s1", message: "e a Acme?", id: "m1" });
    assert.match(provider.inputs[0]!.prompt, /concorrente: a Acme \/ um concorrente \(extract: trecho\)/);
    assert.equal(r.session.data.trecho, "Acme");
  });
});

describe("@falai/agent: streaming edges", () => {
  const g = falai().fields({});
  const flow = g.flow({ id: "venda", name: "Venda", on: [{ message: [] }], steps: [{ id: "preco", prompt: "Preço.", tools: ["orcamento"] }] });
  const collect = async (it: AsyncIterable<TurnStreamEvent>) => {
    const out: TurnStreamEvent[] = [];
    for await (const e of it) out.push(e);
    return out;
  };

  it("chunks that carry tool calls yield no delta; the answer after the tool streams", async () => {
    const make = () => scripted({ speak: [{ toolCalls: [{ toolName: "orcamento", arguments: {} }] }, { message: "Custa 300." }] });
    const agent = (p: AiProvider) => g.agent({ name: "Ana", provider: p, clock: fakeClock(T0), flows: [flow], tools: [g.tool("orcamento", { run: () => 300 })] });
    const events = await collect(agent(make()).turnStream({ sessionId: "s1", message: "preço?", id: "m1" }));
    assert.deepEqual(events.filter((e) => !e.done).map((e) => (e.done ? "" : e.delta)), ["Custa 300."]);
    const plain = await agent(make()).turn({ sessionId: "s1", message: "preço?", id: "m1" });
    assert.deepEqual((events.at(-1) as { result: unknown }).result, plain);
  });

  it("a provider without a stream gives one delta per reply", async () => {
    const p = scripted({ speak: [{ message: "Oi!" }] });
    const noStream: AiProvider = { name: p.name, capabilities: { ...p.capabilities, supportsStreaming: false }, generateMessage: p.generateMessage };
    const events = await collect(g.agent({ name: "Ana", provider: noStream, clock: fakeClock(T0), flows: [g.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] })] }).turnStream({ sessionId: "s1", message: "oi", id: "m1" }));
    assert.deepEqual(events.map((e) => (e.done ? "done" : e.delta)), ["Oi!", "done"]);
  });
});
