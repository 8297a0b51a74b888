// Which run a message goes to: scores (40, and 15 above the asker), the catch-all, the lone flow, mention flows
// beside the conversation, `repeat` and claims, branches of the asking step, the idle speaker, and `silenced`.
import assert from "node:assert/strict";
import { falai, fakeClock, type Session } from "@falai/agent";
import { scripted, spoken, understood, T0 } from "./scripted";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." }, trecho: { type: "string" } });
type Data = Record<string, unknown>;
const venda = f.flow({ id: "venda", name: "Venda", on: [{ message: ["quer comprar"] }], steps: [{ id: "q", collect: ["nome"] }] });
const suporte = f.flow({ id: "suporte", name: "Suporte", on: [{ message: ["tem um problema"] }], steps: [{ id: "p", prompt: "Peça detalhes." }] });
const geral = f.flow({ id: "geral", name: "Geral", on: [{ message: [], repeat: "always" }], steps: [{ id: "g", prompt: "Responda." }] });

function agentWith(flows: Parameters<typeof f.agent>[0]["flows"], script: Parameters<typeof scripted>[0], extra: Partial<Parameters<typeof f.agent>[0]> = {}) {
  const provider = scripted(script);
  const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows, actions: { tag: f.action({ parameters: {}, run: () => ({ ok: true }) }) }, ...extra });
  return { agent, provider };
}

describe("@falai/agent routing", () => {
  it("several candidates are scored; the best at 40 or more starts; below 40 the catch-all starts", async () => {
    const a = agentWith([venda, suporte, geral], { understand: [understood({ flows: { venda: 39, suporte: 45 } }), understood({ flows: { venda: 39, suporte: 20 } })], speak: [spoken("Detalhes?"), spoken("Oi!")] });
    const r1 = await a.agent.turn({ sessionId: "s1", message: "deu erro", id: "m1" });
    assert.deepEqual(r1.started.map((s) => s.flowId), ["suporte"]);
    assert.deepEqual(Object.keys(a.provider.inputs[0]?.parameters?.jsonSchema?.properties?.flows?.properties ?? {}), ["venda", "suporte"], "catch-alls are never scored");
    const r2 = await a.agent.turn({ sessionId: "s2", message: "oi", id: "m1" });
    assert.deepEqual(r2.started.map((s) => s.flowId), ["geral"]);
  });

  it("one eligible flow with no catch-all starts unscored (no understand when there is nothing else to judge)", async () => {
    const noFields = f.flow({ id: "agenda", name: "Agenda", on: [{ message: ["quer marcar"] }], steps: [{ id: "p", prompt: "Ofereça horários." }] });
    const a = agentWith([noFields], { speak: [spoken("Amanhã às 10h?")] });
    const r = await a.agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(a.provider.calls, ["speak"]);
    assert.deepEqual(r.started.map((s) => s.flowId), ["agenda"]);
  });

  it("the asking run keeps the floor unless another flow scores 40+ and 15 above it; the suspended asker asks again once the winner is done", async () => {
    const a = agentWith([venda, suporte], {
      understand: [understood({ flows: { venda: 90 } }), understood({ flows: { venda: 30, suporte: 44 } }), understood({ flows: { venda: 30, suporte: 45 } }), understood({ flows: { venda: 80, suporte: 10 } })],
      speak: [spoken("Seu nome?"), spoken("Qual o nome?"), spoken("Conte o problema."), spoken("E o nome?")],
    });
    const t1 = await a.agent.turn({ sessionId: "s1", message: "quero comprar", id: "m1" });
    const t2 = await a.agent.turn({ sessionId: "s1", session: t1.session, message: "hm", id: "m2" });
    assert.deepEqual(t2.started, [], "44 is not 15 above 30");
    const t3 = await a.agent.turn({ sessionId: "s1", session: t2.session, message: "deu erro", id: "m3" });
    assert.deepEqual(t3.started.map((x) => x.flowId), ["suporte"]);
    assert.deepEqual(t3.messages.map((m) => m.text), ["Conte o problema."]);
    // suporte's prompt step spoke and ended; venda, suspended meanwhile, asks again and answers the next message.
    assert.deepEqual(t3.ended.map((e) => e.flowId), ["suporte"]);
    assert.deepEqual(t3.session.runs.map((r) => [r.flowId, r.status]), [["venda", "asking"]]);
    const t4 = await a.agent.turn({ sessionId: "s1", session: t3.session, message: "voltando", id: "m4" });
    assert.deepEqual(t4.messages.map((m) => m.text), ["E o nome?"]);
  });

  it("a mention starts beside the conversation with its extract as input (never data); repeat once skips it after", async () => {
    const concorrente = f.flow({ id: "concorrente", name: "Concorrente", on: [{ mention: ["cita um concorrente"], extract: { trecho: { type: "string" } } }], steps: [{ id: "t", do: "tag" }, { id: "s", say: "Anotado: {{input.trecho}}" }] });
    const a = agentWith([venda, concorrente], { understand: [understood({ mentions: { concorrente: true }, extract: { concorrente: { trecho: "a Acme", outro: "x" } } }), understood({ mentions: { concorrente: true } })], speak: [] });
    const t1 = await a.agent.turn({ sessionId: "s1", message: "a Acme é melhor", id: "m1" });
    assert.deepEqual(t1.messages.map((m) => m.text), ["Anotado: a Acme"]);
    assert.deepEqual(t1.ended.map((e) => [e.flowId, e.input]), [["concorrente", { trecho: "a Acme" }]]);
    assert.deepEqual(t1.session.data, {});
    assert.deepEqual(t1.outcomes.filter((o) => o.code === "another-reply").map((o) => o.runId), ["venda#m1"], "the say answered the message");
    const t2 = await a.agent.turn({ sessionId: "s1", session: t1.session, message: "a Acme de novo", id: "m2" });
    assert.deepEqual(t2.skipped.map((s) => [s.flowId, s.code]), [["concorrente", "already-claimed"]]);
    assert.deepEqual(Object.keys(a.provider.inputs[1]?.parameters?.jsonSchema?.properties ?? {}), ["fields"], "a claimed mention is not offered");
  });

  it("a code-only mention detector (mention: [] with if) starts with no call", async () => {
    const vip = f.flow({ id: "vip", name: "VIP", on: [{ mention: [], if: ({ data }) => data.nome === "Ana" }], steps: [{ id: "s", say: "Bem-vinda de volta!" }] });
    const a = agentWith([vip], {}, { idle: "silent" });
    const session: Session<Data> = { id: "s1", v: 4, version: 0, data: { nome: "Ana" }, runs: [], claims: {}, inputs: [], metadata: {} };
    const r = await a.agent.turn({ sessionId: "s1", session: session as never, message: "oi", id: "m1" });
    assert.deepEqual(a.provider.calls, []);
    assert.deepEqual(r.messages.map((m) => m.text), ["Bem-vinda de volta!"]);
  });

  it("repeat: once claims the flow for the session, always claims per trigger key, cooldown until it passes", async () => {
    const cool = f.flow({ id: "cool", name: "Cool", on: [{ event: "e", repeat: { cooldown: "1h" } }], steps: [{ id: "s", say: "oi" }] });
    const clock = fakeClock(T0);
    const agent = f.agent({ name: "Ana", provider: scripted({}), clock, flows: [cool], events: { e: f.event() } });
    const t1 = await agent.turn({ sessionId: "s1", event: "e", key: "a" });
    assert.deepEqual(Object.keys(t1.session.claims), ["cool:s1:"]);
    const t2 = await agent.turn({ sessionId: "s1", session: t1.session, event: "e", key: "b" });
    assert.deepEqual(t2.skipped.map((s) => s.code), ["cooldown"]);
    clock.advance("1h");
    const t3 = await agent.turn({ sessionId: "s1", session: t1.session, event: "e", key: "c" });
    assert.deepEqual(t3.started.map((s) => s.runId), ["cool#c"]);
    assert.equal(t3.session.claims["cool:s1:"]?.at, new Date(Date.parse(T0) + 3_600_000).toISOString());
  });

  it("anchors key runs and claims by the host's key; claims.held and claims.active count like this session's", async () => {
    const boas = f.flow({ id: "boas", name: "Boas", anchor: "lead", on: [{ event: "e", repeat: "once" }], steps: [{ id: "s", say: "oi" }] });
    const agent = f.agent({ name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows: [boas], events: { e: f.event() } });
    const r = await agent.turn({ sessionId: "wa", event: "e", key: "k", anchors: { lead: { key: "lead:9" } } });
    assert.deepEqual(r.started, [{ runId: "boas#k", flowId: "boas", anchor: "lead:9", dedupeKey: "boas:lead:9:" }]);
    const held = await agent.turn({ sessionId: "ig", event: "e", key: "k", anchors: { lead: { key: "lead:9" } }, claims: { held: { "boas:lead:9:": T0 }, active: [] } });
    assert.deepEqual(held.skipped.map((s) => [s.anchor, s.code]), [["lead:9", "already-claimed"]]);
    const noAnchor = await agent.turn({ sessionId: "ig", event: "e", key: "k" });
    assert.deepEqual(noAnchor.started.map((s) => s.anchor), ["ig"], "a missing anchor falls back to the session");
  });

  it("the asking step's `when` branch fires from the envelope (full key or qN alias), `if` branches by code", async () => {
    const flow = f.flow({
      id: "pedido", name: "Pedido", on: [{ message: [] }],
      steps: [{ id: "dados", collect: ["nome"], branches: [{ when: "pede um humano", then: "humano" }, { if: ({ data }) => data.trecho === "x", then: "end" }] }, { id: "x", say: "não" }, { id: "humano", say: "Chamando alguém." }],
    });
    const a = agentWith([flow], { speak: [spoken("Seu nome?"), spoken("Seu nome?")], understand: [understood({ branches: { q1: true } }), understood({ branches: { "pedido#m1/dados/0": true } }), understood()] });
    const t1 = await a.agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(a.provider.calls, ["speak"], "no branch is judged before the step spoke");
    const t2 = await a.agent.turn({ sessionId: "s1", session: t1.session, message: "quero um humano", id: "m2" });
    assert.deepEqual(a.provider.inputs[1]?.parameters?.jsonSchema?.properties?.branches?.required, ["q1"]);
    assert.deepEqual(t2.outcomes.map((o) => [o.stepId, o.status, o.code, o.next]), [["dados", "ok", "branch", "humano"], ["humano", "ok", undefined, undefined]]);
    const t3 = await a.agent.turn({ sessionId: "s2", message: "oi", id: "m1" });
    const t4 = await a.agent.turn({ sessionId: "s2", session: t3.session, message: "humano", id: "m2" });
    assert.deepEqual(t4.messages.map((m) => m.text), ["Chamando alguém."]);
  });

  it("with no run and no flow, the idle speaker answers (idle:<id>); idle 'silent' says nothing and still records the input", async () => {
    const a = agentWith([], { speak: [spoken("Oi!")] }, { idle: { prompt: "Responda pela loja." } });
    const r = await a.agent.turn({ sessionId: "s1", message: "oi", id: "m9" });
    assert.deepEqual(r.messages, [{ text: "Oi!", kind: "ai", afterMs: 0, key: "idle:m9" }]);
    assert.ok(a.provider.inputs[0]?.prompt.includes("Responda pela loja."));
    const b = agentWith([], {}, { idle: "silent" });
    const r2 = await b.agent.turn({ sessionId: "s1", message: "oi", id: "m9" });
    assert.deepEqual([r2.llmCalls, r2.messages, r2.session.inputs], [0, [], ["m9"]]);
  });

  it("silenced: zero calls, nothing phrased, do steps run; a run already asking stays asking; { reason, understand: true } still judges", async () => {
    const started = f.flow({ id: "c", name: "C", steps: [{ id: "t", do: "tag" }, { id: "q", collect: ["nome"] }] });
    const chat = f.flow({ id: "m", name: "M", on: [{ message: [] }], steps: [{ id: "q", collect: ["nome"] }] });
    const a = agentWith([started, chat], { speak: [spoken("Seu nome?")], understand: [understood({ fields: { nome: "Ana" } })] });
    const quiet = await a.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" }, silenced: "humano" });
    assert.deepEqual([quiet.llmCalls, quiet.messages], [0, []]);
    assert.deepEqual(quiet.outcomes.map((o) => [o.stepId, o.status, o.code, o.detail]), [["t", "ok", undefined, undefined], ["q", "skipped", "silenced", "humano"]]);
    assert.deepEqual(quiet.ended.map((e) => e.reason), ["skipped"]);
    const t1 = await a.agent.turn({ sessionId: "s2", message: "oi", id: "m1" });
    const still = await a.agent.turn({ sessionId: "s2", session: t1.session, message: "hm", id: "m2", silenced: "humano" });
    assert.deepEqual([still.llmCalls, still.messages, still.session.runs[0]?.status], [0, [], "asking"]);
    const asking = await a.agent.turn({ sessionId: "s2", session: t1.session, message: "sou a Ana", id: "m2", silenced: { reason: "pausa", understand: true } });
    assert.deepEqual(a.provider.calls, ["speak", "understand"]);
    assert.deepEqual(asking.session.data, { nome: "Ana" });
    assert.deepEqual(asking.messages, []);
  });
});
