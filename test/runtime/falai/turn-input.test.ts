// The four turn inputs (message with or without id, wake, event, start) and the inputs refused before any call.
import assert from "node:assert/strict";
import { falai, fakeClock, TurnInputError, type TurnInput } from "@falai/agent";
import { scripted, spoken, T0 } from "./scripted";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const events = { pago: f.event<{ valor: number }>() };
const flows = [
  f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }] }),
  f.flow({ id: "aviso", name: "Aviso", steps: [{ id: "s", say: "Pagamento de {{input.valor}} recebido." }] }),
  f.flow({ id: "pagou", name: "Pagou", on: [{ event: "pago" }], steps: [{ id: "s", say: "Obrigada!" }] }),
];
const agent = (provider = scripted({ speak: [spoken("Oi! Como você se chama?")] })) => f.agent({ name: "Ana", provider, clock: fakeClock(T0), flows, events });

async function refused(input: unknown, code: string) {
  const provider = scripted({});
  await assert.rejects(agent(provider).turn(input as TurnInput<undefined, never>), (e: unknown) => e instanceof TurnInputError && e.code === code && /^\[TurnInputError\] turn\(\): /.test(e.message));
  assert.deepEqual(provider.calls, [], "no call is spent on a refused input");
}

describe("@falai/agent turn inputs", () => {
  it("a message without an id runs, keyed by the clock's time, and is not recorded for duplicates", async () => {
    const r = await agent().turn({ sessionId: "demo", message: "oi" });
    assert.equal(r.started[0]?.runId, `oi#${T0}`);
    assert.equal(r.messages[0]?.key, `oi#${T0}:nome:1`);
    assert.deepEqual(r.session.inputs, []);
    assert.equal(r.session.lastUserAt, T0);
  });

  it("a message's `at` is its trigger key when it has no id, and its receipt time", async () => {
    const at = "2026-09-20T09:59:00.000Z";
    const r = await agent().turn({ sessionId: "demo", message: "oi", at });
    assert.equal(r.started[0]?.runId, `oi#${at}`);
    assert.equal(r.session.lastUserAt, at);
  });

  it("a start runs the named flow with its input; an unknown flow is skipped with flow-gone", async () => {
    const r = await agent().turn({ sessionId: "s1", start: { flow: "aviso", input: { valor: 30 }, key: "k1" } });
    assert.deepEqual(r.messages.map((m) => [m.text, m.key, m.kind]), [["Pagamento de 30 recebido.", "aviso#k1:s:1", "verbatim"]]);
    assert.deepEqual(r.ended.map((e) => [e.id, e.reason, e.trigger.kind]), [["aviso#k1", "end", "start"]]);
    const gone = await agent().turn({ sessionId: "s1", start: { flow: "nada", key: "k2" } });
    assert.deepEqual(gone.skipped, [{ flowId: "nada", anchor: "s1", triggerKey: "k2", code: "flow-gone", message: gone.skipped[0]?.message }]);
    assert.equal(gone.changed, true);
  });

  it("an event starts its flows; the same key again is already-claimed", async () => {
    const a = agent();
    const r = await a.turn({ sessionId: "s1", event: "pago", payload: { valor: 3 }, key: "p1" });
    assert.deepEqual(r.started.map((s) => s.dedupeKey), ["pagou:s1:p1"]);
    const again = await a.turn({ sessionId: "s1", session: r.session, event: "pago", key: "p1" });
    assert.deepEqual(again.skipped.map((s) => s.code), ["already-claimed"]);
    assert.deepEqual(again.messages, []);
  });

  it("a wake with no session is ignored: no-session, changed false", async () => {
    const r = await agent().turn({ sessionId: "s1", wake: "x:y:1" });
    assert.equal(r.changed, false);
    assert.deepEqual(r.outcomes.map((o) => [o.kind, o.status, o.code, o.key]), [["wait", "skipped", "no-session", "x:y:1"]]);
  });

  it("refuses inputs it cannot run, before any call", async () => {
    await refused({ message: "oi" }, "bad-input");
    await refused({ sessionId: "s1" }, "no-input-kind");
    await refused({ sessionId: "s1", message: "oi", wake: "k" }, "several-input-kinds");
    await refused({ sessionId: "s1", message: "oi", id: "m1", mesage: "typo" }, "unknown-key");
    await refused({ sessionId: "s1", event: "nada", key: "k" }, "unknown-event");
    await refused({ sessionId: "s1", event: "pago" }, "bad-input");
    await refused({ sessionId: "s1", start: { flow: "aviso" } }, "bad-input");
    await refused({ sessionId: "s1", start: { flow: "aviso", key: "k", when: "now" } }, "unknown-key");
    await refused({ sessionId: "s1", message: "oi", session: { id: "s2" } }, "session-mismatch");
    await refused({ sessionId: "s1", message: "oi", silenced: true }, "bad-input");
  });

  it("turnStream throws a refused input at the call", () => {
    assert.throws(() => agent().turnStream({ sessionId: "s1" } as never), TurnInputError);
  });
});
