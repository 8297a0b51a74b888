// Events (direction, `after` parking and replacing), silence wakes (armed, replaced, broken), premises re-checked
// before a run moves, businessHours, and pendingWakes.
import assert from "node:assert/strict";
import { falai, fakeClock } from "@falai/agent";
import { scripted, spoken, understood, T0, MS0 } from "./scripted";

interface Ctx { owner: "ai" | "human" }
const f = falai<Ctx>().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const ai: Ctx = { owner: "ai" };
const events = { entrou: f.event<{ etapa: string }>(), reagiu: f.event({ direction: "inbound" }), humano: f.event({ direction: "outbound" }) };
const chat = f.flow({ id: "chat", name: "Chat", on: [{ message: [] }], steps: [{ id: "q", collect: ["nome"] }] });
const retomar = f.flow({ id: "retomar", name: "Retomar", on: [{ silence: "24h", if: ({ context }) => context.owner === "ai" }], steps: [{ id: "p", prompt: "Retome." }, { id: "w", wait: "2d", else: "end" }] });
const proposta = f.flow({ id: "proposta", name: "Proposta", on: [{ event: "entrou", after: "1h" }], while: ({ input }) => (input as { etapa: string }).etapa === "proposta", steps: [{ id: "s", say: "Chegou bem?" }] });

function harness(speak: Parameters<typeof scripted>[0]["speak"] = [], extra: Record<string, unknown> = {}) {
  const clock = fakeClock(T0);
  const provider = scripted({ speak, understand: [understood(), understood(), understood()] });
  const agent = f.agent({ name: "Ana", provider, clock, flows: [chat, retomar, proposta], events, ...extra });
  return { agent, clock, provider };
}

describe("@falai/agent events", () => {
  it("an event with after parks the run before its first step (awaiting-trigger); the same event again replaces it", async () => {
    const h = harness();
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, event: "entrou", payload: { etapa: "proposta" }, key: "e1" });
    const at = MS0 + 3_600_000;
    assert.deepEqual(t1.outcomes, [{ runId: "proposta#e1", flowId: "proposta", kind: "wait", status: "waiting", code: "awaiting-trigger", message: t1.outcomes[0]!.message, until: new Date(at).toISOString(), at: T0 }]);
    assert.deepEqual(t1.schedule, [{ key: `proposta#e1:start:${at}`, at: new Date(at) }]);
    assert.deepEqual(t1.session.runs.map((r) => [r.stepId, r.status, r.input]), [[null, "waiting", { etapa: "proposta" }]]);
    const t2 = await h.agent.turn({ sessionId: "s1", context: ai, session: t1.session, event: "entrou", payload: { etapa: "proposta" }, key: "e2" });
    assert.deepEqual(t2.ended.map((e) => [e.id, e.reason]), [["proposta#e1", "replaced"]]);
    assert.deepEqual(t2.session.runs.map((r) => r.id), ["proposta#e2"]);
  });

  it("the wake re-checks the premise (while) before the first step: premise-changed ends it with no call", async () => {
    const h = harness();
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, event: "entrou", payload: { etapa: "outra" }, key: "e1" });
    h.clock.advance("1h");
    const t2 = await h.agent.turn({ sessionId: "s1", context: ai, session: t1.session, wake: t1.schedule[0]!.key });
    assert.deepEqual(t2.outcomes.map((o) => [o.kind, o.status, o.code]), [["if", "skipped", "premise-changed"]]);
    assert.deepEqual(t2.ended.map((e) => e.reason), ["skipped"]);
  });

  it("an inbound event counts as the customer speaking (resolves reply waits); an outbound one as the assistant (arms silence)", async () => {
    const h = harness([spoken("Oi, ainda faz sentido?")]);
    const session = { id: "s1", v: 4 as const, version: 1, data: {}, runs: [], claims: {}, inputs: [], metadata: {}, lastAssistantAt: T0 };
    const wake = await h.agent.turn({ sessionId: "s1", context: ai, session, wake: `silence:retomar:s1:${MS0}` });
    assert.equal(wake.session.runs[0]?.status, "waiting");
    const reacted = await h.agent.turn({ sessionId: "s1", context: ai, session: wake.session, event: "reagiu", key: "r1" });
    assert.deepEqual(reacted.outcomes.map((o) => o.code), ["replied"]);
    assert.equal(reacted.session.lastUserAt, T0);
    const out = await h.agent.turn({ sessionId: "s2", context: ai, event: "humano", key: "h1" });
    assert.deepEqual(out.schedule.map((s) => s.key), [`silence:retomar:s2:${MS0}`]);
  });
});

describe("@falai/agent silence", () => {
  it("after the assistant speaks each silence flow whose if holds is armed; a later reply re-arms with replaces", async () => {
    const h = harness([spoken("Seu nome?"), spoken("E o nome?")]);
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, message: "oi", id: "m1" });
    assert.deepEqual(t1.schedule, [{ key: `silence:retomar:s1:${MS0}`, at: new Date(MS0 + 86_400_000) }]);
    const human = await harness([spoken("Seu nome?")]).agent.turn({ sessionId: "s1", context: { owner: "human" }, message: "oi", id: "m1" });
    assert.deepEqual(human.schedule, [], "the trigger's if is judged when the wake is armed");
    h.clock.advance("1h");
    const t2 = await h.agent.turn({ sessionId: "s1", context: ai, session: t1.session, message: "hm", id: "m2" });
    assert.deepEqual(t2.schedule, [{ key: `silence:retomar:s1:${MS0 + 3_600_000}`, at: new Date(MS0 + 3_600_000 + 86_400_000), replaces: `silence:retomar:s1:${MS0}` }]);
  });

  it("a silence wake after someone spoke since is silence-broken (changed false)", async () => {
    const h = harness([spoken("Seu nome?")]);
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, message: "oi", id: "m1" });
    const replied = { ...t1.session, lastUserAt: new Date(MS0 + 1000).toISOString() };
    const r = await h.agent.turn({ sessionId: "s1", context: ai, session: replied, wake: t1.schedule[0]!.key });
    assert.deepEqual([r.changed, r.outcomes.map((o) => o.code)], [false, ["silence-broken"]]);
  });

  it("a silence run woken after the customer wrote ends: customer-replied", async () => {
    const h = harness([spoken("Oi, ainda faz sentido?")]);
    const session = { id: "s1", v: 4 as const, version: 1, data: {}, runs: [], claims: {}, inputs: [], metadata: {}, lastAssistantAt: T0 };
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, session, wake: `silence:retomar:s1:${MS0}` });
    h.clock.advance("2d");
    const wrote = { ...t1.session, lastUserAt: new Date(MS0 + 60_000).toISOString() };
    // A wait without `else`: the wake takes `then`, and the run's own premise (the customer wrote since it started) ends it.
    const noElse = f.agent({ name: "Ana", provider: scripted({}), clock: h.clock, flows: [f.flow({ ...retomar, steps: [{ id: "p", prompt: "Retome." }, { id: "w", wait: "2d" }, { id: "x", say: "de novo" }] })] });
    const again = await noElse.turn({ sessionId: "s1", context: ai, session: wrote, wake: t1.schedule[0]!.key });
    assert.deepEqual(again.outcomes.map((o) => [o.status, o.code]), [["ok", "no-reply"], ["skipped", "customer-replied"]]);
    assert.deepEqual(again.messages, []);
  });

  it("businessHours snaps a timer wait forward to working hours", async () => {
    const nine = (at: Date) => (at.getUTCHours() < 9 ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), 9)) : at);
    const flow = f.flow({ id: "x", name: "X", steps: [{ id: "w", wait: "20h", businessHours: true }] });
    const agent = f.agent({ name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows: [flow], businessHours: nine });
    const r = await agent.turn({ sessionId: "s1", context: ai, start: { flow: "x", key: "k" } });
    assert.equal(r.schedule[0]!.at.toISOString(), "2026-09-21T09:00:00.000Z");
  });

  it("pendingWakes lists the parked runs' wakes and the silence wakes a saved session waits on, changing nothing", async () => {
    const h = harness([spoken("Oi, ainda faz sentido?")]);
    const session = { id: "s1", v: 4 as const, version: 1, data: {}, runs: [], claims: {}, inputs: [], metadata: {}, lastAssistantAt: T0 };
    assert.deepEqual(h.agent.pendingWakes({ session, context: ai }), [{ key: `silence:retomar:s1:${MS0}`, at: new Date(MS0 + 86_400_000) }]);
    assert.deepEqual(h.agent.pendingWakes({ session, context: { owner: "human" } }), []);
    const t1 = await h.agent.turn({ sessionId: "s1", context: ai, session, wake: `silence:retomar:s1:${MS0}` });
    assert.deepEqual(h.agent.pendingWakes({ session: t1.session, context: ai }), t1.schedule);
  });
});
