// Mention triggers with extract, message-flow scoring, and branches judged by understand.
import assert from "node:assert/strict";
import { branchKeyOf } from "../../../runtime/src/falai/keys";
import { falai, fakeClock } from "@falai/agent";
import { scripted, understood } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";

describe("@falai/agent: mention triggers with extract", () => {
  const f = falai().fields({ trecho: { type: "string" }, nome: { type: "string" } });
  const triagem = f.flow({ id: "triagem", name: "Triagem", on: [{ message: ["quer saber como funciona"] }], steps: [{ id: "quem", collect: ["nome"] }] });
  const concorrente = f.flow({
    id: "concorrente",
    name: "Concorrente",
    on: [{ mention: "um concorrente", extract: ["trecho"] }],
    steps: [{ id: "responder", prompt: "Mostre nosso diferencial." }],
  });

  it("starts when mentions[flowId] is true and stores extract[flowId] as data", async () => {
    const provider = scripted({
      understand: [understood({ flows: { triagem: 80 }, mentions: { concorrente: true }, extract: { concorrente: { trecho: "a Acme cobra metade", nome: "ignorado" } } })],
      speak: [{ message: "Nosso diferencial é..." }],
    });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem, concorrente] });
    const r = await agent.turn({ sessionId: "s1", message: "a Acme cobra metade", id: "m1" });
    assert.deepEqual(r.started.map((s) => [s.runId, s.trigger]), [["triagem#m1", "message"], ["concorrente#m1", "mention"]]);
    assert.equal(r.session.data.trecho, "a Acme cobra metade");
    assert.equal(r.session.data.nome, undefined, "only the trigger's extract fields are taken");
    // The newest run holds the floor and speaks; triagem waits its turn.
    assert.deepEqual(r.messages.map((m) => m.key), ["concorrente#m1:responder:1"]);
    assert.equal(r.session.runs.find((x) => x.flowId === "triagem")?.status, "active");
    assert.match(provider.inputs[0]!.prompt, /concorrente: um concorrente \(extract: trecho\)/);
    assert.deepEqual(provider.calls, ["understand", "speak"]);
  });

  it("does not start when the mention is false", async () => {
    const provider = scripted({ understand: [understood({ flows: { triagem: 90 } })], speak: [{ message: "Qual seu nome?", nome: null }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem, concorrente] });
    const r = await agent.turn({ sessionId: "s1", message: "como funciona?", id: "m1" });
    assert.deepEqual(r.started.map((s) => s.flowId), ["triagem"]);
  });
});

describe("@falai/agent: message flows are scored", () => {
  const f = falai().fields({});
  const a = f.flow({ id: "a", name: "A", on: [{ message: ["fala de preço"] }], steps: [{ id: "p", prompt: "Preço." }] });
  const b = f.flow({ id: "b", name: "B", on: [{ message: ["fala de suporte"] }], steps: [{ id: "p", prompt: "Suporte." }] });
  const fallback = f.flow({ id: "geral", name: "Geral", on: [{ message: [] }], steps: [{ id: "p", prompt: "Ajude." }] });

  it("the best score at or above 50 starts", async () => {
    const provider = scripted({ understand: [understood({ flows: { a: 55, b: 90 } })], speak: [{ message: "Suporte!" }] });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [a, b, fallback] }).turn({ sessionId: "s1", message: "meu app caiu", id: "m1" });
    assert.deepEqual(r.started.map((s) => s.flowId), ["b"]);
  });

  it("with nothing at 50 and two candidates, the catch-all takes the message", async () => {
    const provider = scripted({ understand: [understood({ flows: { a: 10, b: 49 } })], speak: [{ message: "Como posso ajudar?" }] });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [a, b, fallback] }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.started.map((s) => [s.flowId, s.trigger]), [["geral", "catch-all"]]);
  });
});

describe("@falai/agent: branches judged by understand", () => {
  const f = falai().fields({});
  const flow = f.flow({
    id: "venda",
    name: "Venda",
    on: [{ message: [] }],
    steps: [
      { id: "pergunta", prompt: "Pergunte se quer o plano anual ou mensal.", branches: [{ when: "quer o anual", goto: "anual" }, { when: "quer o mensal", goto: "mensal" }] },
      { id: "indeciso", prompt: "Explique a diferença." },
      { id: "anual", prompt: "Fale do anual." },
      { id: "mensal", prompt: "Fale do mensal." },
    ],
  });
  const runId = "venda#m1";

  async function answer(branches: Record<string, boolean>) {
    const provider = scripted({ understand: [understood({ branches })], speak: [{ message: "Anual ou mensal?" }, { message: "Resposta." }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const t2 = await agent.turn({ sessionId: "s1", message: "o mensal", id: "m2", session: t1.session });
    return { t1, t2, provider };
  }

  it("the step speaks first, then the next message is judged and the holding branch is taken", async () => {
    const { t1, t2, provider } = await answer({ [branchKeyOf(runId, "pergunta", 1)]: true, [branchKeyOf(runId, "pergunta", 0)]: false });
    assert.equal(t1.llmCalls, 1, "nothing to judge before the question is asked");
    assert.equal(t1.session.runs[0]?.status, "asking");
    assert.deepEqual(provider.calls, ["speak", "understand", "speak"]);
    assert.match(provider.inputs[1]!.prompt, /venda#m1\/pergunta\/0: quer o anual/);
    assert.match(provider.inputs[1]!.prompt, /venda#m1\/pergunta\/1: quer o mensal/);
    const branch = t2.outcomes.find((o) => o.kind === "branch");
    assert.deepEqual([branch?.code, branch?.goto], ["branch-taken", "mensal"]);
    assert.deepEqual(t2.messages.map((m) => m.key), ["venda#m1:mensal:1"]);
    assert.equal(t2.session.runs[0]?.status, "done");
  });

  it("when no branch holds, the run goes on to the next step", async () => {
    const { t2 } = await answer({});
    assert.equal(t2.outcomes.find((o) => o.kind === "branch")?.code, "no-branch");
    assert.deepEqual(t2.messages.map((m) => m.key), ["venda#m1:indeciso:1"]);
  });
});

describe("@falai/agent: a branch that loops back", () => {
  it("judges each message once: coming back to the step waits for the next message", async () => {
    const f = falai().fields({});
    const flow = f.flow({
      id: "menu",
      name: "Menu",
      on: [{ message: [] }],
      steps: [{ id: "roteia", branches: [{ when: "quer repetir", goto: "roteia" }, { when: "quer sair", goto: "end" }] }, { id: "fim", prompt: "Fim." }],
    });
    const provider = scripted({ understand: [understood({ branches: { "menu#m1/roteia/0": true } })] });
    const r = await f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] }).turn({ sessionId: "s1", message: "de novo", id: "m1" });
    assert.deepEqual(r.outcomes.filter((o) => o.kind === "branch").map((o) => o.goto), ["roteia"]);
    assert.deepEqual([r.session.runs[0]?.stepId, r.session.runs[0]?.status, r.session.runs[0]?.visits], ["roteia", "asking", { roteia: 2 }]);
    assert.equal(r.outcomes.some((o) => o.code === "step-loop"), false);
  });
});

describe("@falai/agent: the otherwise branch (a last branch without `when`)", () => {
  const f = falai().fields({});
  const flow = f.flow({
    id: "venda",
    name: "Venda",
    on: [{ message: [] }],
    steps: [
      { id: "pergunta", prompt: "Pergunte se quer o plano anual.", branches: [{ when: "quer o anual", goto: "anual" }, { goto: "end" }] },
      { id: "nunca", prompt: "Nunca chega aqui." },
      { id: "anual", prompt: "Fale do anual." },
    ],
  });

  async function answer(holds: boolean) {
    const provider = scripted({ understand: [understood({ branches: { [branchKeyOf("venda#m1", "pergunta", 0)]: holds } })], speak: [{ message: "Quer o anual?" }, { message: "Sobre o anual..." }] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const t2 = await agent.turn({ sessionId: "s1", message: "não sei", id: "m2", session: t1.session });
    return { t2, provider };
  }

  it("is not judged: understand is asked only about the branches with a `when`", async () => {
    const { provider } = await answer(true);
    assert.match(provider.inputs[1]!.prompt, /venda#m1\/pergunta\/0: quer o anual/);
    assert.doesNotMatch(provider.inputs[1]!.prompt, /venda#m1\/pergunta\/1/);
  });

  it("a holding branch still wins", async () => {
    const { t2 } = await answer(true);
    assert.deepEqual(t2.outcomes.filter((o) => o.kind === "branch").map((o) => o.goto), ["anual"]);
    assert.deepEqual(t2.messages.map((m) => m.key), ["venda#m1:anual:1"]);
  });

  it("is taken when no other branch holds, instead of going on to the next step", async () => {
    const { t2 } = await answer(false);
    const branch = t2.outcomes.find((o) => o.kind === "branch");
    assert.deepEqual([branch?.code, branch?.goto], ["branch-taken", "end"]);
    assert.equal(t2.messages.length, 0);
    assert.equal(t2.session.runs[0]?.status, "done");
  });

  it("must be the last branch", () => {
    assert.throws(
      () => f.flow({ id: "x", name: "X", on: [{ message: [] }], steps: [{ id: "a", branches: [{ goto: "end" }, { when: "y", goto: "a" }] }] }),
      (e: unknown) => (e as { code?: string }).code === "bad-option" && /must be the last one/.test(String(e)),
    );
  });
});
