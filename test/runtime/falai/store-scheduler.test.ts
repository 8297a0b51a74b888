// MemoryStore versions and SessionConflictError; MemoryScheduler idempotence, order and removal.
import assert from "node:assert/strict";
import { falai, fakeClock, MemoryScheduler, MemoryStore, SessionConflictError, type DataOf } from "@falai/agent";
import { scripted, understood } from "./scripted";

const T0 = "2026-09-20T10:00:00.000Z";
const f = falai().fields({ nome: { type: "string" } });
type Data = DataOf<typeof f>;
const flow = f.flow({ id: "oi", name: "Oi", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }, { id: "fim", prompt: "Agradeça." }] });

describe("@falai/agent: MemoryStore", () => {
  it("load returns null for an unknown session, and a copy otherwise", async () => {
    const store = new MemoryStore<Data>();
    assert.equal(await store.load("s1"), null);
    const saved = await store.save({ id: "s1", version: 0, data: { nome: "Ana" }, runs: [], seen: [] }, 0);
    assert.equal(saved.version, 1);
    const a = await store.load("s1");
    a!.data.nome = "mudou";
    assert.equal((await store.load("s1"))?.data.nome, "Ana");
  });

  it("two turns computed on the same version: the second save throws SessionConflictError; a replay on the new version saves", async () => {
    const store = new MemoryStore<Data>();
    const clock = fakeClock(T0);
    const agent = f.agent({
      name: "Ana",
      provider: scripted({ understand: [understood({ fields: { nome: "Ana" } }), understood({ fields: { nome: "Bia" } }), understood({ fields: {} })], speak: [{ message: "Como você se chama?", nome: null }, { message: "Obrigada!" }, { message: "Obrigada de novo!" }] }),
      clock,
      flows: [flow],
    });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
    await store.save(t1.session, 0);
    const loaded = (await store.load("s1"))!;
    // Two webhooks race on version 1.
    const a = await agent.turn({ sessionId: "s1", message: "Ana", id: "m2", session: loaded });
    const b = await agent.turn({ sessionId: "s1", message: "Bia", id: "m3", session: loaded });
    await store.save(a.session, loaded.version);
    await assert.rejects(store.save(b.session, loaded.version), (e: unknown) => {
      assert.ok(e instanceof SessionConflictError);
      assert.equal(e.code, "session-conflict");
      assert.equal(e.expectedVersion, 1);
      assert.equal(e.actualVersion, 2);
      return true;
    });
    const fresh = (await store.load("s1"))!;
    const replay = await agent.turn({ sessionId: "s1", message: "Bia", id: "m3", session: fresh });
    const saved = await store.save(replay.session, fresh.version);
    assert.equal(saved.version, 3);
    assert.deepEqual(saved.seen, ["m1", "m2", "m3"]);
  });

  it("the turn returns version + 1 when it changed the session, the same version when ignored", async () => {
    const agent = f.agent({ name: "Ana", provider: scripted({ speak: [{ message: "Nome?", nome: null }] }), clock: fakeClock(T0), flows: [flow] });
    const t1 = await agent.turn({ sessionId: "s1", message: "oi", id: "m1", session: { id: "s1", version: 4, data: {}, runs: [], seen: [] } });
    assert.equal(t1.session.version, 5);
    const dup = await agent.turn({ sessionId: "s1", message: "oi", id: "m1", session: t1.session });
    assert.equal(dup.session.version, 5);
  });
});

describe("@falai/agent: MemoryScheduler", () => {
  it("add is idempotent by key; due lists what has come due, oldest first; take and remove drop entries", () => {
    const s = new MemoryScheduler();
    assert.equal(s.add({ key: "b", sessionId: "s1", at: "2026-09-20T12:00:00.000Z", kind: "wait" }), true);
    assert.equal(s.add({ key: "a", sessionId: "s1", at: "2026-09-20T11:00:00.000Z", kind: "silence" }), true);
    assert.equal(s.add({ key: "a", sessionId: "s1", at: "2026-09-20T10:00:00.000Z", kind: "silence" }), false);
    assert.equal(s.add({ key: "c", sessionId: "s1", at: "2026-09-21T11:00:00.000Z", kind: "retry" }), true);
    assert.equal(s.size, 3);
    assert.deepEqual(s.due(new Date("2026-09-20T10:30:00.000Z")), []);
    assert.deepEqual(s.due(new Date("2026-09-20T12:00:00.000Z")).map((e) => e.key), ["a", "b"]);
    assert.equal(s.size, 3, "due does not remove");
    assert.deepEqual(s.take(new Date("2026-09-20T12:00:00.000Z")).map((e) => e.key), ["a", "b"]);
    assert.equal(s.size, 1);
    assert.equal(s.remove("c"), true);
    assert.equal(s.remove("c"), false);
    assert.equal(s.size, 0);
  });
});
