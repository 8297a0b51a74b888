// Malformed provider replies and throwing actions never escape a turn.
import assert from "node:assert/strict";
import { falai, fakeClock, type AiProvider } from "@falai/agent";
import { scripted } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({ trecho: { type: "string" }, nome: { type: "string" } });

describe("@falai/agent: robustness", () => {
  it("malformed understand sections count as empty", async () => {
    const triagem = f.flow({ id: "triagem", name: "T", on: [{ message: ["a"] }], steps: [{ id: "quem", collect: ["nome"] }] });
    const concorrente = f.flow({ id: "concorrente", name: "C", on: [{ mention: "x", extract: ["trecho"] }], steps: [{ id: "p", prompt: "P." }] });
    const provider = scripted({ understand: [{ flows: [], mentions: "sim", extract: { concorrente: "a Acme" }, branches: null, fields: 3 }], speak: [{ message: "Nome?", nome: null }] });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem, concorrente] }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.started.map((s) => s.flowId), ["triagem"], "the only candidate starts; no mention held");
    assert.deepEqual(r.session.data, {});
  });

  it("a provider that returns nothing defers the step", async () => {
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] });
    const provider: AiProvider = {
      name: "broken",
      capabilities: { supportsTools: false, supportsNativeJsonSchema: false, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false },
      generateMessage: () => Promise.resolve(undefined as never),
    };
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    const line = r.outcomes.find((o) => o.status === "deferred");
    assert.equal(line?.code, "provider-unavailable");
    assert.match(line?.message ?? "", /returned nothing/);
  });

  it("a throwing action defers the step; the retry runs the actions again with the same keys, backing off", async () => {
    const seen: string[] = [];
    let fail = 2;
    const flow = f.flow({ id: "crm", name: "CRM", on: [{ message: [] }], steps: [{ id: "registrar", do: ["salvar"] }, { id: "p", prompt: "Pronto." }] });
    const clock = fakeClock(T0);
    const agent = f.agent({
      name: "Ana", provider: scripted({ speak: [{ message: "Pronto." }] }), clock, flows: [flow],
      actions: { salvar: (ctx) => { seen.push(ctx.dedupeKey); if (fail-- > 0) throw new Error("CRM fora do ar"); } },
    });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal(t1.outcomes.find((o) => o.status === "deferred")?.code, "action-failed");
    assert.deepEqual(t1.schedule.map((s) => s.key), [`crm#m1:registrar:retry:${Date.parse(T0) + 60_000}`]);
    clock.advance("1m");
    const t2 = await agent.turn({ sessionId: "s1", wake: t1.schedule[0]!.key, session: t1.session });
    assert.deepEqual(t2.schedule.map((s) => s.key), [`crm#m1:registrar:retry:${Date.parse(T0) + 60_000 + 120_000}`], "the second failure waits twice as long");
    clock.advance("2m");
    const t3 = await agent.turn({ sessionId: "s1", wake: t2.schedule[0]!.key, session: t2.session });
    assert.deepEqual(seen, ["crm#m1:registrar:1:salvar", "crm#m1:registrar:1:salvar", "crm#m1:registrar:1:salvar"]);
    assert.equal(t3.outcomes.find((o) => o.kind === "do")?.code, "action-ran");
    assert.deepEqual(t3.messages.map((m) => m.text), ["Pronto."]);
    assert.equal(t3.session.runs[0]?.status, "done");
  });

  it("the input session is never mutated", async () => {
    const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }] });
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [{ message: "Nome?", nome: null }, { message: "Nome?", nome: "Ana" }] }), clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const before = structuredClone(t1.session);
    await agent.turn({ sessionId: "s1", message: "Ana", id: "m2", session: t1.session });
    assert.deepEqual(t1.session, before);
  });
});

describe("@falai/agent: speak replies without text", () => {
  const g = falai().fields({ nome: { type: "string" } });
  const flow = g.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }] });
  const agentWith = (out: { message: string; structured?: unknown }) =>
    g.agent({
      name: "Ana",
      clock: fakeClock(T0),
      flows: [flow],
      provider: {
        name: "fixed",
        capabilities: { supportsTools: false, supportsNativeJsonSchema: false, supportsStreaming: false, supportsStreamingToolCalls: false, supportsPromptCaching: false },
        generateMessage: <_C, T>() => Promise.resolve(out as { message: string; structured?: T }),
      },
    });

  it("an envelope without a message defers the step with empty-reply", async () => {
    const r = await agentWith({ message: '{"nome":"Ana"}', structured: { nome: "Ana" } }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal(r.messages.length, 0);
    assert.equal(r.outcomes.find((o) => o.status === "deferred")?.code, "empty-reply");
  });

  it("a plain-text reply is sent as it is", async () => {
    const r = await agentWith({ message: "Olá!" }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.messages.map((m) => m.text), ["Olá!"]);
  });
});

describe("@falai/agent: action patches", () => {
  it("are merged into the data as JSON, so the session stays serialisable", async () => {
    const g = falai().fields({ nome: { type: "string" } });
    const flow = g.flow({ id: "x", name: "X", on: [{ message: [] }], steps: [{ id: "d", do: "marcar" }] });
    const agent = g.agent({
      name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows: [flow],
      actions: { marcar: () => ({ nome: "Ana", quando: new Date(T0), fn: () => 1 }) as never },
    });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.session.data, { nome: "Ana", quando: T0 });
    const again = await agent.turn({ sessionId: "s1", message: "oi de novo", id: "m2", session: r.session });
    assert.equal(again.changed, true);
  });
});
