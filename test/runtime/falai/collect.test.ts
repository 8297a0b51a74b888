// Talk steps and field collection: pending fields, `already-known`, `maxAsks`, the fixed `question`, where a value
// may come from (`extract`), and the lines for values the model gave that cannot be written.
import assert from "node:assert/strict";
import { falai, fakeClock } from "@falai/agent";
import { scripted, spoken, understood, T0 } from "./scripted";

const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  plano: { type: "string", enum: ["basico", "pro"], ask: "Pergunte o plano." },
  pessoas: { type: "integer", ask: "Pergunte quantas pessoas." },
  ok: { type: "boolean", ask: "Pergunte se está certo." },
  doc: { type: "string", extract: "asked", ask: "Peça o documento." },
});
type Script = Parameters<typeof scripted>[0];
const agentWith = (flows: Parameters<typeof f.agent>[0]["flows"], script: Script) => {
  const provider = scripted(script);
  return { provider, agent: f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows }) };
};

describe("@falai/agent collection", () => {
  it("a talk step asks its pending fields, counts each ask, and moves on when the message fills them", async () => {
    const flow = f.flow({ id: "c", name: "C", on: [{ message: [] }], steps: [{ id: "q", collect: ["nome", "pessoas"] }, { id: "fim", prompt: "Agradeça." }] });
    const { agent, provider } = agentWith([flow], { speak: [spoken("Nome e pessoas?"), spoken("Obrigada!")], understand: [understood({ fields: { nome: "Ana", pessoas: "30,7" } })] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(t1.session.runs[0]?.asked, { nome: 1, pessoas: 1 });
    assert.deepEqual(provider.inputs[0]?.parameters?.jsonSchema?.required, ["message", "nome", "pessoas"]);
    const t2 = await agent.turn({ sessionId: "s1", session: t1.session, message: "Ana, 30", id: "m2" });
    assert.deepEqual(t2.session.data, { nome: "Ana", pessoas: 30 }, "an integer is truncated");
    assert.deepEqual(t2.outcomes.map((o) => [o.stepId, o.kind, o.status, o.code, o.llmCalls]), [["q", "collect", "ok", undefined, undefined], ["fim", "prompt", "ok", undefined, 1]]);
    assert.deepEqual(t2.ended.map((e) => e.reason), ["end"]);
  });

  it("a step whose fields are known is skipped with no call (already-known)", async () => {
    const flow = f.flow({ id: "c", name: "C", steps: [{ id: "q", collect: ["nome"] }, { id: "s", say: "Oi {{data.nome}}" }] });
    const { agent, provider } = agentWith([flow], {});
    const r = await agent.turn({ sessionId: "s1", session: { id: "s1", v: 4, version: 2, data: { nome: "Ana" }, runs: [], claims: {}, inputs: [], metadata: {} }, start: { flow: "c", key: "k" } });
    assert.deepEqual(provider.calls, []);
    assert.deepEqual(r.outcomes.map((o) => [o.stepId, o.status, o.code]), [["q", "skipped", "already-known"], ["s", "ok", undefined]]);
    assert.equal(r.session.version, 2, "a turn never changes the version");
  });

  it("maxAsks gives a field up: one max-asks line per field, and the run moves on", async () => {
    const flow = f.flow({ id: "c", name: "C", steps: [{ id: "q", collect: ["nome", "plano"], maxAsks: 1 }, { id: "s", say: "Seguimos." }] });
    const { agent } = agentWith([flow], { speak: [spoken("Nome e plano?")], understand: [understood()] });
    const t1 = await agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
    const t2 = await agent.turn({ sessionId: "s1", session: t1.session, message: "prefiro não dizer", id: "m1" });
    assert.deepEqual(t2.outcomes.map((o) => [o.code, o.detail]), [["max-asks", "nome"], ["max-asks", "plano"], [undefined, undefined]]);
    assert.deepEqual(t2.messages.map((m) => m.text), ["Seguimos."]);
  });

  it("a fixed question goes out word for word as the first ask (asked-fixed), counting one ask per field", async () => {
    const flow = f.flow({ id: "c", name: "C", steps: [{ id: "q", collect: ["nome"], question: "Qual é o seu nome, {{input.tratamento}}?" }] });
    const { agent, provider } = agentWith([flow], {});
    const r = await agent.turn({ sessionId: "s1", start: { flow: "c", key: "k", input: { tratamento: "senhora" } } });
    assert.deepEqual(provider.calls, []);
    assert.deepEqual(r.messages, [{ text: "Qual é o seu nome, senhora?", kind: "verbatim", afterMs: 0, key: "c#k:q:1", runId: "c#k", stepId: "q" }]);
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["collect", "ok", "asked-fixed"]]);
    assert.deepEqual(r.session.runs[0]?.asked, { nome: 1 });
  });

  it("on a message that asks something, the model answers first and the question follows; asks: false sends it alone", async () => {
    const flow = f.flow({ id: "c", name: "C", on: [{ message: [] }], steps: [{ id: "q", collect: ["nome"], question: "Qual é o seu nome?" }] });
    const a = agentWith([flow], { understand: [understood({ asks: true })], speak: [spoken("Custa R$ 10.")] });
    const r = await a.agent.turn({ sessionId: "s1", message: "quanto custa?", id: "m1" });
    assert.deepEqual(a.provider.calls, ["understand", "speak"]);
    assert.equal(a.provider.inputs[0]?.parameters?.jsonSchema?.properties?.asks?.type, "boolean");
    assert.deepEqual(r.messages.map((m) => [m.kind, m.text]), [["ai", "Custa R$ 10."], ["verbatim", "Qual é o seu nome?"]]);
    assert.deepEqual(a.provider.inputs[1]?.parameters?.jsonSchema?.required, ["message"], "the answer asks for nothing");
    const b = agentWith([flow], { understand: [understood({ asks: false })] });
    const r2 = await b.agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(b.provider.calls, ["understand"]);
    assert.deepEqual(r2.messages.map((m) => m.kind), ["verbatim"]);
  });

  it("extract 'asked' fields (booleans by default) come only from the speak reply of the step that asks them", async () => {
    const flow = f.flow({ id: "c", name: "C", on: [{ message: ["quer cadastrar"] }], steps: [{ id: "q", collect: ["nome", "ok", "doc"] }] });
    const { agent, provider } = agentWith([flow], { understand: [understood({ fields: { nome: "Ana", ok: true, doc: "123" } })], speak: [spoken("Confirma? E o documento?", { ok: "sim", doc: "456" })] });
    const r = await agent.turn({ sessionId: "s1", message: "quero cadastrar, sou a Ana, sim", id: "m1" });
    assert.deepEqual(Object.keys(provider.inputs[0]?.parameters?.jsonSchema?.properties?.fields?.properties ?? {}), ["nome"]);
    assert.deepEqual(r.session.data, { nome: "Ana", ok: true, doc: "456" });
  });

  it("values that cannot be written leave collect/skipped lines with no run; the field stays pending", async () => {
    const flow = f.flow({ id: "c", name: "C", on: [{ message: [] }], steps: [{ id: "q", collect: ["plano", "pessoas"] }, { id: "s", say: "Anotado." }] });
    const { agent } = agentWith([flow], { speak: [spoken("Plano e pessoas?", { plano: "gold", pessoas: "mil", cor: "azul" })], understand: [] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const drops = r.outcomes.filter((o) => o.status === "skipped").map((o) => [o.runId, o.code, o.detail]);
    assert.deepEqual(drops, [[undefined, "not-in-enum", "plano"], [undefined, "bad-value", "pessoas"]], "a key the step did not ask for is not written");
    assert.deepEqual(r.session.data, {});
    assert.deepEqual(r.session.runs[0]?.asked, { plano: 1, pessoas: 1 });
  });

  it("a field the model names that the agent does not have is dropped with unknown-field", async () => {
    const flow = f.flow({ id: "c", name: "C", on: [{ message: ["quer algo"] }], steps: [{ id: "q", collect: ["nome"] }] });
    const { agent } = agentWith([flow], { understand: [understood({ fields: { nome: "Ana", idade: 30 } })] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.outcomes[0], { kind: "collect", status: "skipped", code: "unknown-field", message: r.outcomes[0]?.message, detail: "idade", at: T0 });
    assert.deepEqual(r.session.data, { nome: "Ana" });
  });
});
