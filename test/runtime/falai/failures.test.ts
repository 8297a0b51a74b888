// Provider failures: the speak call never makes turn() reject — the step waits under a retry wake (same visit, same
// keys) or ends; the understand call does reject, with ProviderError, having changed nothing.
import assert from "node:assert/strict";
import { falai, fakeClock, ProviderError, RETRY_BACKOFF_MS } from "@falai/agent";
import { scripted, spoken, T0, MS0 } from "./scripted";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const flow = f.flow({ id: "c", name: "C", on: [{ message: [] }], steps: [{ id: "t", do: "tag" }, { id: "q", collect: ["nome"] }] });

function harness(speak: Parameters<typeof scripted>[0]["speak"], understand: Parameters<typeof scripted>[0]["understand"] = []) {
  const clock = fakeClock(T0);
  const tags: string[] = [];
  const provider = scripted({ speak: speak ?? [], understand: understand ?? [] });
  const agent = f.agent({ name: "Ana", provider, clock, flows: [flow], actions: { tag: f.action({ parameters: {}, run: (_p, c) => (tags.push(c.key), { ok: true }) }) } });
  return { agent, clock, provider, tags };
}

describe("@falai/agent provider failures", () => {
  it("a speak failure defers the step: provider-unavailable, a :retry:<ms> key, no reject; the retry keeps the keys and skips the do step", async () => {
    const h = harness([new Error("503 overloaded"), spoken("Seu nome?")]);
    const t1 = await h.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
    const due = MS0 + RETRY_BACKOFF_MS[0];
    assert.deepEqual(t1.outcomes.at(-1), { runId: "c#k", flowId: "c", stepId: "q", key: "c#k:q:1", kind: "collect", status: "deferred", code: "provider-unavailable", message: t1.outcomes.at(-1)?.message, until: new Date(due).toISOString(), at: T0 });
    assert.deepEqual(t1.schedule, [{ key: `c#k:q:1:retry:${due}`, at: new Date(due) }]);
    assert.equal(t1.llmCalls, 1);
    assert.equal(t1.changed, true);
    h.clock.advance("1m");
    const t2 = await h.agent.turn({ sessionId: "s1", session: t1.session, wake: t1.schedule[0]!.key });
    assert.deepEqual(t2.messages.map((m) => m.key), ["c#k:q:1"]);
    assert.deepEqual(h.tags, ["c#k:t:1"], "the do step before the call does not run again");
  });

  it("the retry ladder: +1m, +5m, +15m, +1h, +6h, then the run ends failed", async () => {
    const h = harness(Array.from({ length: 6 }, () => new Error("timeout")));
    let r = await h.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
    const gaps: number[] = [];
    for (let i = 0; i < 5; i++) {
      gaps.push(r.schedule[0]!.at.getTime() - h.clock.now().getTime());
      h.clock.set(r.schedule[0]!.at);
      r = await h.agent.turn({ sessionId: "s1", session: r.session, wake: r.schedule[0]!.key });
    }
    assert.deepEqual(gaps, [...RETRY_BACKOFF_MS]);
    assert.deepEqual(r.outcomes.map((o) => [o.status, o.code]), [["failed", "provider-unavailable"]]);
    assert.deepEqual(r.ended.map((e) => e.reason), ["failed"]);
    assert.deepEqual(r.schedule, []);
  });

  it("a failure waiting cannot fix ends the run at once (provider-auth, provider-context, provider-invalid)", async () => {
    for (const [kind, code] of [["auth", "provider-auth"], ["context", "provider-context"], ["invalid", "provider-invalid"]] as const) {
      const h = harness([new ProviderError({ provider: "x", kind, message: "no" })]);
      const r = await h.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
      assert.deepEqual([r.outcomes.at(-1)?.status, r.outcomes.at(-1)?.code, r.ended[0]?.reason, r.schedule.length], ["failed", code, "failed", 0], kind);
    }
  });

  it("a stated reset later than the rung is when the retry wakes; an empty reply is provider-unavailable", async () => {
    const reset = MS0 + 7_200_000;
    const h = harness([new ProviderError({ provider: "x", kind: "quota", message: "window", resetAtMs: reset }), { message: "  " }]);
    const r = await h.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
    assert.deepEqual([r.outcomes.at(-1)?.code, r.schedule[0]?.at.getTime()], ["provider-quota", reset]);
    h.clock.set(reset);
    const r2 = await h.agent.turn({ sessionId: "s1", session: r.session, wake: r.schedule[0]!.key });
    assert.deepEqual([r2.outcomes.at(-1)?.status, r2.outcomes.at(-1)?.code], ["deferred", "provider-unavailable"]);
  });

  it("an understand failure rejects with ProviderError and nothing was written", async () => {
    const two = f.flow({ id: "d", name: "D", on: [{ message: ["quer algo"] }], steps: [{ id: "q", collect: ["nome"] }] });
    const provider = scripted({ understand: [new Error("network down")] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [two] });
    await assert.rejects(agent.turn({ sessionId: "s1", message: "oi", id: "m1" }), (e: unknown) => e instanceof ProviderError && e.kind === "unknown" && e.message === "network down");
  });

  it("the idle speaker's failure leaves one idle/deferred line and no wake", async () => {
    const provider = scripted({ speak: [new Error("down")] });
    const agent = f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows: [] });
    const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code, o.llmCalls, o.key]), [["idle", "deferred", "provider-unavailable", 1, undefined]]);
    assert.deepEqual(r.schedule, []);
  });

  it("a message meanwhile leaves the deferred run parked on its retry wake", async () => {
    const h = harness([new Error("down"), spoken("Posso ajudar?")]);
    const t1 = await h.agent.turn({ sessionId: "s1", start: { flow: "c", key: "k" } });
    const t2 = await h.agent.turn({ sessionId: "s1", session: t1.session, message: "oi", id: "m1" });
    assert.deepEqual(t2.session.runs.map((r) => [r.status, r.waiting?.key]), [["waiting", t1.schedule[0]!.key]]);
    assert.deepEqual(t2.messages.map((m) => m.key), ["idle:m1"], "nobody holds the floor, so the idle speaker answers");
  });
});
