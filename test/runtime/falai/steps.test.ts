// The six step kinds and where a run goes after each: say, do (with every ActionResult), timer and event waits,
// if steps, `then` / `else` / `onFail` in all their forms, chaining, the caps, and onEnd.
import assert from "node:assert/strict";
import { falai, fakeClock, type ActionResult } from "@falai/agent";
import { scripted, spoken, understood, T0, MS0 } from "./scripted";

const f = falai<{ online: boolean }>().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  ok: { type: "boolean", ask: "Pergunte se está certo." },
});
const ctx = { online: true };

function harness(flows: Parameters<typeof f.agent>[0]["flows"], reply: (name: string, params: Record<string, unknown>) => ActionResult = () => ({ ok: true }), script = {}) {
  const calls: Array<{ action: string; key: string; dedupeKey: string; params: Record<string, unknown> }> = [];
  const mk = (name: string) => f.action({ parameters: { texto: { type: "string", optional: true } }, run: (params, c) => (calls.push({ action: name, key: c.key, dedupeKey: c.dedupeKey, params }), reply(name, params)) });
  const clock = fakeClock(T0);
  const provider = scripted(script);
  const agent = f.agent({ name: "Ana", provider, clock, flows, actions: { a: mk("a"), b: mk("b"), set: f.action({ parameters: {}, run: (_p, c) => (c.set({ nome: "Bia" }), { ok: true }) }) }, events: { pago: f.event() } });
  return { agent, calls, clock, provider, start: (flow: string, extra: Record<string, unknown> = {}) => agent.turn({ sessionId: "s1", context: ctx, start: { flow, key: "k" }, ...extra }) };
}

describe("@falai/agent steps: say and do", () => {
  it("say goes out verbatim with its template filled; `once` sends it once per session", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "s", say: "Oi {{input.nome}}!", once: true, media: { slug: "logo" } }] })]);
    const t1 = await h.agent.turn({ sessionId: "s1", context: ctx, start: { flow: "x", key: "k1", input: { nome: "Ana" } } });
    assert.deepEqual(t1.messages, [{ text: "Oi Ana!", kind: "verbatim", media: { slug: "logo" }, afterMs: 0, key: "x#k1:s:1", runId: "x#k1", stepId: "s" }]);
    assert.equal(t1.session.lastAssistantAt, T0);
    const t2 = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, start: { flow: "x", key: "k2" } });
    assert.deepEqual(t2.messages, []);
    assert.deepEqual(t2.outcomes.map((o) => [o.kind, o.status, o.code]), [["say", "skipped", "already-sent"]]);
  });

  it("do runs the action with `with` rendered, under the step key and the run's dedupe key", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "d", do: "a", with: { texto: "oi {{context.online}} {{data.nada}}" } }] })]);
    const r = await h.start("x");
    assert.deepEqual(h.calls, [{ action: "a", key: "x#k:d:1", dedupeKey: "x:s1:k", params: { texto: "oi true {{data.nada}}" } }]);
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code]), [["do", "ok", undefined]]);
  });

  it("skipped / failed / throws / a non-result: the lines and onFail", async () => {
    const results: Record<string, ActionResult | (() => never) | unknown> = { a: { skipped: "sem créditos" }, b: { failed: "fora do ar" } };
    const h = harness(
      [f.flow({ id: "x", name: "X", steps: [{ id: "d1", do: "a" }, { id: "d2", do: "b", onFail: "fim" }, { id: "pula", say: "não sai" }, { id: "fim", say: "falhou" }] })],
      (name) => results[name] as ActionResult,
    );
    const r = await h.start("x");
    assert.deepEqual(r.outcomes.map((o) => [o.stepId, o.status, o.code, o.detail, o.next]), [
      ["d1", "skipped", "action-skipped", "sem créditos", undefined],
      ["d2", "failed", "action-failed", "fora do ar", "fim"],
      ["fim", "ok", undefined, undefined, undefined],
    ]);
    results.a = () => { throw new Error("boom"); };
    results.b = undefined;
    const h2 = harness([f.flow({ id: "x", name: "X", steps: [{ id: "d1", do: "a" }, { id: "d2", do: "b" }] })], (name) => (typeof results[name] === "function" ? (results[name] as () => never)() : (results[name] as ActionResult)));
    const r2 = await h2.start("x");
    assert.deepEqual(r2.outcomes.map((o) => [o.status, o.code]), [["failed", "action-failed"], ["failed", "action-failed"]]);
    assert.equal(r2.outcomes[0]?.detail, "boom");
    assert.match(r2.outcomes[1]?.detail ?? "", /^the action returned nothing, not \{ ok: true \}/);
  });

  it("{ defer } parks the run; the wake re-runs the same step under the same key", async () => {
    let n = 0;
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "d", do: "a" }, { id: "fim", say: "feito" }] })], () => (++n === 1 ? { defer: "5m", detail: "tarde" } : { ok: true }));
    const t1 = await h.start("x");
    assert.deepEqual(t1.outcomes.map((o) => [o.status, o.code, o.until]), [["deferred", "action-deferred", new Date(MS0 + 300_000).toISOString()]]);
    assert.deepEqual(t1.schedule, [{ key: `x#k:d:${MS0 + 300_000}`, at: new Date(MS0 + 300_000) }]);
    h.clock.advance("5m");
    const t2 = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, wake: t1.schedule[0]!.key });
    assert.deepEqual(h.calls.map((c) => c.key), ["x#k:d:1", "x#k:d:1"]);
    assert.deepEqual(t2.messages.map((m) => m.text), ["feito"]);
  });

  it("ctx.set writes data as given; spoke: true counts as the assistant speaking", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "s", do: "set" }, { id: "q", collect: ["nome"] }, { id: "d", do: "a" }] })], () => ({ ok: true, spoke: true }));
    const r = await h.start("x");
    assert.deepEqual(r.session.data, { nome: "Bia" });
    assert.deepEqual(r.outcomes.map((o) => [o.stepId, o.code]), [["s", undefined], ["q", "already-known"], ["d", undefined]]);
    assert.equal(r.session.lastAssistantAt, T0);
  });
});

describe("@falai/agent steps: waits", () => {
  it("a short wait before a message rides as afterMs; a longer one parks and schedules {key, at}", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "a", say: "A" }, { id: "p", wait: "10s" }, { id: "b", say: "B" }, { id: "w", wait: "11s" }, { id: "c", say: "C" }] })]);
    const r = await h.start("x");
    assert.deepEqual(r.messages.map((m) => [m.text, m.afterMs]), [["A", 0], ["B", 10_000]]);
    assert.deepEqual(r.outcomes.map((o) => [o.stepId, o.status, o.code, o.detail]), [["a", "ok", undefined, undefined], ["p", "ok", "inline-delay", "10000ms"], ["b", "ok", undefined, undefined], ["w", "waiting", undefined, undefined]]);
    assert.deepEqual(r.schedule, [{ key: `x#k:w:${MS0 + 11_000}`, at: new Date(MS0 + 11_000) }]);
    assert.deepEqual(r.session.runs[0]?.waiting, { kind: "timer", key: `x#k:w:${MS0 + 11_000}`, until: new Date(MS0 + 11_000).toISOString(), setAt: T0 });
  });

  it("a reply while parked takes `else` (an `if` branch first); the wake with no reply takes `then`; a wait without else ignores replies", async () => {
    const steps = [{ id: "w", wait: "1h", else: "obrigada", branches: [{ if: ({ context }: { context: { online: boolean } }) => !context.online, then: "end" }] }, { id: "depois", say: "passou", then: "end" }, { id: "obrigada", say: "valeu" }];
    const h = harness([f.flow({ id: "x", name: "X", steps })], undefined, { speak: [] });
    const t1 = await h.start("x");
    const replied = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, message: "oi", id: "m1" });
    assert.deepEqual(replied.outcomes[0], { runId: "x#k", flowId: "x", stepId: "w", kind: "wait", status: "ok", code: "replied", message: replied.outcomes[0]!.message, next: "obrigada", at: T0 });
    assert.deepEqual(replied.messages.map((m) => m.text), ["valeu"]);
    const offline = await h.agent.turn({ sessionId: "s1", context: { online: false }, session: t1.session, message: "oi", id: "m1" });
    assert.deepEqual(offline.ended.map((e) => e.reason), ["end"]);
    assert.deepEqual(offline.messages, []);
    h.clock.advance("1h");
    const woke = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, wake: t1.schedule[0]!.key });
    assert.deepEqual(woke.outcomes.map((o) => [o.code, o.next]), [["no-reply", undefined], [undefined, "end"]]);
    assert.deepEqual(woke.messages.map((m) => m.text), ["passou"]);
  });

  it("a wake after the customer wrote takes `else` (replied)", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "w", wait: "1h", else: "end" }, { id: "d", say: "passou" }] })]);
    const t1 = await h.start("x");
    const later = { ...t1.session, lastUserAt: new Date(MS0 + 60_000).toISOString() };
    const r = await h.agent.turn({ sessionId: "s1", context: ctx, session: later, wake: t1.schedule[0]!.key });
    assert.deepEqual(r.outcomes.map((o) => [o.code, o.next]), [["replied", "end"]]);
    assert.deepEqual(r.ended.map((e) => e.reason), ["end"]);
  });

  it("an event wait parks until the event (event-arrived → then) or upTo (no-event → else, or end)", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "w", wait: { event: "pago", upTo: "2d" }, else: "nao" }, { id: "sim", say: "chegou", then: "end" }, { id: "nao", say: "não veio", then: "end" }] })]);
    const t1 = await h.start("x");
    assert.deepEqual(t1.outcomes.map((o) => [o.code, o.detail, o.until]), [["awaiting-event", "pago", new Date(MS0 + 2 * 86_400_000).toISOString()]]);
    assert.equal(t1.session.runs[0]?.waiting?.kind, "event");
    const arrived = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, event: "pago", key: "e1" });
    assert.deepEqual(arrived.outcomes.map((o) => o.code), ["event-arrived", undefined]);
    assert.deepEqual(arrived.messages.map((m) => m.text), ["chegou"]);
    h.clock.advance("2d");
    const timeout = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, wake: t1.schedule[0]!.key });
    assert.deepEqual(timeout.outcomes.map((o) => [o.code, o.next]), [["no-event", "nao"], [undefined, "end"]]);
    assert.deepEqual(timeout.messages.map((m) => m.text), ["não veio"]);
  });

  it("a replaced or stale wake key is ignored: stale-wake, changed false", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "w", wait: "1h" }] })]);
    const t1 = await h.start("x");
    const r = await h.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, wake: "x#k:w:1" });
    assert.equal(r.changed, false);
    assert.deepEqual(r.outcomes.map((o) => o.code), ["stale-wake"]);
    assert.deepEqual(r.session, t1.session);
  });
});

describe("@falai/agent steps: if, then, and the caps", () => {
  it("an if step takes `then` on true and `else` (default end) on false, with `next` on its line", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "g", if: { silenced: true }, then: "mudo", else: "fala" }, { id: "fala", say: "oi", then: "end" }, { id: "mudo", do: "a" }] })]);
    const r = await h.start("x");
    assert.deepEqual(r.outcomes.map((o) => [o.stepId, o.kind, o.next]), [["g", "if", "fala"], ["fala", "say", "end"]]);
    const quiet = await h.agent.turn({ sessionId: "s1", context: ctx, start: { flow: "x", key: "k" }, silenced: "humano" });
    assert.deepEqual(quiet.outcomes.map((o) => [o.stepId, o.next]), [["g", "mudo"], ["mudo", undefined]]);
    const ends = harness([f.flow({ id: "y", name: "Y", steps: [{ id: "g", if: { known: ["nome"] } }, { id: "s", say: "não" }] })]);
    const r2 = await ends.start("y");
    assert.deepEqual(r2.outcomes.map((o) => o.next), ["end"]);
    assert.deepEqual(r2.ended.map((e) => e.reason), ["end"]);
  });

  it("{ step, clear } forgets fields and their ask counts, and the step counts a new visit", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "s", do: "set" }, { id: "g", if: { known: ["ok"] }, else: { step: "fim", clear: ["nome"] } }, { id: "fim", say: "Oi {{data.nome}}" }] })]);
    const r = await h.start("x");
    assert.deepEqual(r.session.data, {});
    assert.deepEqual(r.messages.map((m) => m.text), ["Oi {{data.nome}}"]);
  });

  it("{ flow } ends the run (reason flow) and starts the child one hop deeper with the parent's input", async () => {
    const h = harness([
      f.flow({ id: "a", name: "A", steps: [{ id: "s", say: "A", then: { flow: "{{input.next}}" } }] }),
      f.flow({ id: "b", name: "B", steps: [{ id: "t", say: "B {{input.next}}" }] }),
    ]);
    const r = await h.agent.turn({ sessionId: "s1", context: ctx, start: { flow: "a", key: "k", input: { next: "b" } } });
    assert.deepEqual(r.ended.map((e) => [e.id, e.reason, e.hop]), [["a#k", "flow", 0], ["b#a#k:s:1", "end", 1]]);
    assert.deepEqual(r.started, [
      { runId: "a#k", flowId: "a", anchor: "s1", dedupeKey: "a:s1:k" },
      { runId: "b#a#k:s:1", flowId: "b", anchor: "s1", dedupeKey: "b:s1:a#k:s:1" },
    ]);
    assert.deepEqual(r.outcomes[0]?.next, "flow:b");
    assert.deepEqual(r.messages.map((m) => m.text), ["A", "B b"]);
  });

  it("chaining stops at hop 5 (hop-limit); an unknown chained flow is flow-gone", async () => {
    const h = harness([f.flow({ id: "a", name: "A", steps: [{ id: "s", do: "a", then: { flow: "a" } }] })]);
    const r = await h.start("a");
    assert.equal(h.calls.length, 5);
    assert.deepEqual(r.skipped.map((s) => s.code), ["hop-limit"]);
    const gone = harness([f.flow({ id: "a", name: "A", steps: [{ id: "s", say: "A", then: { flow: "{{input.x}}" } }] })]);
    const r2 = await gone.agent.turn({ sessionId: "s1", context: ctx, start: { flow: "a", key: "k", input: { x: "nada" } } });
    assert.deepEqual(r2.skipped.map((s) => [s.flowId, s.code]), [["nada", "flow-gone"]]);
  });

  it("50 steps in one turn end the run: step-loop, reason failed", async () => {
    const h = harness([f.flow({ id: "x", name: "X", steps: [{ id: "a", if: { known: ["nome"] }, then: "a", else: "b" }, { id: "b", if: { silenced: false }, then: "a", else: "end" }] })]);
    const r = await h.agent.turn({ sessionId: "s1", context: ctx, session: { id: "s1", v: 4, version: 0, data: { nome: "x" }, runs: [], claims: {}, inputs: [], metadata: {} }, start: { flow: "x", key: "k" } });
    assert.deepEqual(r.ended.map((e) => e.reason), ["failed"]);
    assert.equal(r.outcomes.at(-1)?.code, "step-loop");
    assert.equal(r.outcomes.length, 51);
  });

  it("onEnd 'reset' starts the flow again one hop deeper with the data kept; 'stay' answers from its last talk step", async () => {
    const reset = harness([f.flow({ id: "x", name: "X", onEnd: "reset", clearOnStart: ["nome"], steps: [{ id: "d", do: "a" }] })]);
    const r = await reset.start("x");
    assert.equal(reset.calls.length, 5);
    assert.deepEqual(r.ended.map((e) => e.reason), ["reset", "reset", "reset", "reset", "reset"]);
    assert.deepEqual(r.skipped.map((s) => s.code), ["hop-limit"]);
    const stay = harness([f.flow({ id: "x", name: "X", onEnd: "stay", steps: [{ id: "q", prompt: "Responda." }, { id: "d", do: "a" }] })], undefined, { speak: [spoken("Oi!"), spoken("Claro.")], understand: [understood()] });
    const t1 = await stay.start("x");
    assert.deepEqual(t1.session.runs.map((x) => [x.stepId, x.status, x.staying]), [["q", "asking", true]]);
    const t2 = await stay.agent.turn({ sessionId: "s1", context: ctx, session: t1.session, message: "e o preço?", id: "m1" });
    assert.deepEqual(t2.messages.map((m) => [m.text, m.key]), [["Claro.", "x#k:q:2"]]);
    assert.equal(stay.calls.length, 1, "the steps after the talk step ran once");
  });
});
