// Timer waits: a customer message sends the run to `else`; an elapsed wait goes on to the next step.
import assert from "node:assert/strict";
import { falai, fakeClock, MemoryScheduler } from "@falai/agent";
import { scripted } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({});
const lembrete = f.flow({
  id: "lembrete",
  name: "Lembrete",
  on: [{ message: [] }],
  steps: [
    { id: "p1", prompt: "Diga que volta a falar em dois dias." },
    { id: "w1", wait: "2d", else: "respondeu" },
    { id: "p2", prompt: "Retome, curto." },
    { id: "respondeu", prompt: "Agradeça a resposta." },
  ],
});

async function parked(speak: Array<Record<string, unknown>>) {
  const clock = fakeClock(T0);
  const provider = scripted({ speak });
  const agent = f.agent({ name: "Ana", provider, clock, flows: [lembrete] });
  const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
  return { clock, provider, agent, t1 };
}

describe("@falai/agent: timer waits", () => {
  it("parks the run with the exact wait outcome and a timer key", async () => {
    const { t1 } = await parked([{ message: "Falo com você em dois dias." }]);
    const untilMs = Date.parse(T0) + 2 * 86_400_000;
    assert.deepEqual(t1.outcomes.find((o) => o.kind === "wait"), {
      runId: "lembrete#m1", flowId: "lembrete", stepId: "w1", key: "lembrete#m1:w1:1", kind: "wait", status: "waiting",
      until: new Date(untilMs).toISOString(), at: T0,
    });
    assert.deepEqual(t1.schedule, [{ key: `lembrete#m1:w1:${untilMs}`, sessionId: "s1", at: new Date(untilMs).toISOString(), kind: "wait" }]);
    assert.equal(t1.session.runs[0]?.status, "waiting");
  });

  it("a customer message while waiting sends the run to else", async () => {
    const { clock, agent, t1, provider } = await parked([{ message: "Falo com você em dois dias." }, { message: "Obrigada por responder!" }]);
    clock.advance("3h");
    const t2 = await agent.turn({ sessionId: "s1", message: "voltei", id: "m2", session: t1.session });
    const line = t2.outcomes.find((o) => o.kind === "wait");
    assert.deepEqual([line?.status, line?.code, line?.goto], ["interrupted", "wait-interrupted", "respondeu"]);
    assert.deepEqual(t2.messages.map((m) => m.key), ["lembrete#m1:respondeu:1"]);
    assert.equal(t2.session.runs[0]?.status, "done");
    assert.deepEqual(provider.calls, ["speak", "speak"], "a catch-all run with nothing to judge spends no understand");
    // The timer key that was queued is stale now.
    const late = await agent.turn({ sessionId: "s1", wake: t1.schedule[0]!.key, session: t2.session });
    assert.equal(late.changed, false);
    assert.equal(late.outcomes[0]?.code, "stale-wake");
  });

  it('else: "end" ends the run', async () => {
    const g = falai().fields({});
    const flow = g.flow({ id: "x", name: "X", on: [{ message: [] }], steps: [{ id: "p", prompt: "Oi." }, { id: "w", wait: "1h", else: "end" }, { id: "q", prompt: "Tchau." }] });
    const provider = scripted({ speak: [{ message: "Oi." }] });
    const agent = g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const t2 = await agent.turn({ sessionId: "s1", message: "e aí", id: "m2", session: t1.session });
    assert.equal(t2.session.runs[0]?.status, "done");
    assert.equal(t2.outcomes.find((o) => o.kind === "end")?.code, "flow-done");
    assert.equal(t2.messages.length, 0);
  });

  it("a wait that elapses goes on to the next step", async () => {
    const { clock, agent, t1 } = await parked([{ message: "Falo com você em dois dias." }, { message: "E então?" }]);
    const scheduler = new MemoryScheduler();
    t1.schedule.forEach((e) => scheduler.add(e));
    clock.advance("47h");
    assert.deepEqual(scheduler.due(clock.now()), []);
    clock.advance("1h");
    const [due] = scheduler.due(clock.now());
    const t2 = await agent.turn({ sessionId: "s1", wake: due!.key, session: t1.session });
    const line = t2.outcomes.find((o) => o.kind === "wait");
    assert.deepEqual([line?.status, line?.code, line?.stepId], ["ok", "wait-elapsed", "w1"]);
    assert.deepEqual(t2.messages.map((m) => [m.key, m.text]), [["lembrete#m1:p2:1", "E então?"]]);
    assert.equal(t2.session.runs[0]?.stepId, "respondeu", "p2 spoke; the next step speaks on the next turn");
    assert.equal(t2.llmCalls, 1);
  });
});

describe("@falai/agent: collect steps", () => {
  const g = falai().fields({ nome: { type: "string" }, empresa: { type: "string" } });
  const triagem = g.flow({
    id: "triagem",
    name: "Triagem",
    on: [{ message: ["quer saber como funciona"] }],
    steps: [
      { id: "quem", prompt: "Descubra quem é e de onde fala.", collect: ["nome", "empresa"] },
      { id: "tchau", prompt: "Agradeça." },
    ],
  });

  it("a step whose fields are all known is passed without a call; the next step speaks", async () => {
    const provider = scripted({ understand: [{ flows: {}, mentions: {}, extract: {}, branches: {}, fields: { nome: "Ana", empresa: "Acme" } }], speak: [{ message: "Obrigada!" }] });
    const r = await g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem] }).turn({ sessionId: "s1", message: "sou a Ana da Acme", id: "m1" });
    assert.deepEqual(provider.calls, ["understand", "speak"]);
    assert.deepEqual(r.messages.map((m) => m.key), ["triagem#m1:tchau:1"]);
    assert.equal(r.session.runs[0]?.status, "done");
    assert.deepEqual(r.outcomes.filter((o) => o.kind === "collect").map((o) => [o.field, o.status, o.runId]), [["nome", "ok", "triagem#m1"], ["empresa", "ok", "triagem#m1"]]);
  });

  it("asks again, with a new visit, until every field has a value", async () => {
    const provider = scripted({
      understand: [{ fields: { nome: "Ana" } }, { fields: {} }, { fields: { empresa: "Acme" } }],
      speak: [{ message: "De qual empresa?", empresa: null }, { message: "E a empresa?", empresa: null }, { message: "Obrigada!" }],
    });
    const agent = g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [triagem] });
    const t1 = await agent.turn({ sessionId: "s1", message: "sou a Ana", id: "m1" });
    const t2 = await agent.turn({ sessionId: "s1", message: "hmm", id: "m2", session: t1.session });
    const t3 = await agent.turn({ sessionId: "s1", message: "Acme", id: "m3", session: t2.session });
    assert.deepEqual([t1, t2, t3].map((t) => t.messages.map((m) => m.key)), [["triagem#m1:quem:1"], ["triagem#m1:quem:2"], ["triagem#m1:tchau:1"]]);
    assert.deepEqual([t1, t2, t3].map((t) => t.llmCalls), [2, 2, 2]);
    assert.deepEqual(t3.session.data, { nome: "Ana", empresa: "Acme" });
    assert.equal(t3.session.runs[0]?.status, "done");
  });

  it("a message nobody takes logs no-flow", async () => {
    const h = falai().fields({});
    const only = h.flow({ id: "x", name: "X", on: [{ silence: "1h" }], steps: [{ id: "p", prompt: "P." }] });
    const r = await h.agent({ name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows: [only] }).turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.outcomes.map((o) => o.code), ["no-flow"]);
    assert.equal(r.changed, true);
    assert.deepEqual(r.session.seen, ["m1"]);
  });
});

describe("@falai/agent: a run ended by a message", () => {
  it("does not restart its flow from that same message", async () => {
    const g = falai().fields({});
    const flow = g.flow({ id: "x", name: "X", on: [{ message: ["qualquer coisa"] }], steps: [{ id: "p", prompt: "Oi." }, { id: "w", wait: "1h", else: "end" }] });
    const provider = scripted({ understand: [{ flows: { x: 90 } }, { flows: { x: 90 } }], speak: [{ message: "Oi." }, { message: "De novo." }] });
    const agent = g.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const t2 = await agent.turn({ sessionId: "s1", message: "tchau", id: "m2", session: t1.session });
    assert.deepEqual(t2.started, []);
    assert.deepEqual(t2.session.runs.map((r) => [r.runId, r.status]), [["x#m1", "done"]]);
    assert.deepEqual(provider.calls, ["understand", "speak"], "nothing could start: no understand");
    const t3 = await agent.turn({ sessionId: "s1", message: "oi de novo", id: "m3", session: t2.session });
    assert.deepEqual(t3.started.map((r) => r.runId), ["x#m3"]);
  });
});
