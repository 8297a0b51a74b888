// MemoryStore (the version check every store shares, rows read back through assertSession), assertSession,
// migrateSession, and MemoryScheduler.
import assert from "node:assert/strict";
import { assertSession, InvalidSessionError, MemoryScheduler, MemoryStore, migrateSession, SessionConflictError, type Session } from "@falai/agent";

const fresh = (id = "s1"): Session<{ nome: string }> => ({ id, v: 4, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} });

describe("@falai/agent MemoryStore", () => {
  it("0 inserts, n updates a row still at n; either returns the session at n + 1", async () => {
    const store = new MemoryStore<{ nome: string }>();
    assert.equal(await store.load("s1"), null);
    const v1 = await store.save(fresh(), 0);
    assert.equal(v1.version, 1);
    const v2 = await store.save({ ...v1, data: { nome: "Ana" } }, 1);
    assert.deepEqual([v2.version, (await store.load("s1"))?.data], [2, { nome: "Ana" }]);
  });

  it("throws SessionConflictError with the found version, or undefined when the row is gone", async () => {
    const store = new MemoryStore();
    await store.save(fresh(), 0);
    await assert.rejects(store.save(fresh(), 0), (e: unknown) => e instanceof SessionConflictError && e.expectedVersion === 0 && e.actualVersion === 1);
    await assert.rejects(store.save(fresh("s9"), 4), (e: unknown) => e instanceof SessionConflictError && e.actualVersion === undefined && /gone/.test(e.message));
    store.clear();
    assert.equal(await store.load("s1"), null);
  });

  it("keeps rows as JSON: Dates come back as text, undefined drops, a load is a copy", async () => {
    const store = new MemoryStore();
    await store.save({ ...fresh(), metadata: { when: new Date(0), nada: undefined } as never }, 0);
    const a = await store.load("s1");
    assert.deepEqual(a?.metadata, { when: "1970-01-01T00:00:00.000Z" });
    (a!.metadata as Record<string, unknown>).x = 1;
    assert.deepEqual((await store.load("s1"))?.metadata, { when: "1970-01-01T00:00:00.000Z" });
  });
});

describe("@falai/agent assertSession and migrateSession", () => {
  it("assertSession keeps only the session keys and rejects what is no v4 session for that id", () => {
    assert.deepEqual(Object.keys(assertSession({ ...fresh(), extra: 1 }, "s1")), ["id", "v", "version", "data", "runs", "claims", "inputs", "metadata"]);
    assert.throws(() => assertSession({ ...fresh(), v: 3 }, "s1"), (e: unknown) => e instanceof InvalidSessionError && /v is 3, expected 4/.test(e.message));
    assert.throws(() => assertSession(fresh("s2"), "s1"), InvalidSessionError);
    assert.throws(() => assertSession("garbage", "s1"), /expected an object, got "garbage"/);
    assert.throws(() => assertSession({ ...fresh(), runs: [{ id: "a", flowId: "f", status: "done" }] }, "s1"), /status "done"/);
  });

  it("assertSession rejects the malformed sessions upstream rejects, naming what is wrong", () => {
    const run = { id: "f#m1", flowId: "f", anchor: "s1", dedupeKey: "f:s1:", stepId: "a", status: "asking", trigger: { kind: "message", key: "m1" }, hop: 0, startedAt: "2026-09-20T10:00:00.000Z", asked: {}, visits: {}, outcomes: [] };
    assert.ok(assertSession({ ...fresh(), runs: [run] }, "s1"), "a well-formed run passes");
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...fresh(), claims: { "a:s1:": {} } }, /claim "a:s1:" is \{\}/],
      [{ ...fresh(), inputs: [1] }, /inputs is \[1\]/],
      [{ ...fresh(), runs: [{ ...run, trigger: undefined }] }, /run "f#m1" has trigger missing/],
      [{ ...fresh(), runs: [{ ...run, hop: "0" }] }, /run "f#m1" has hop "0"/],
      [{ ...fresh(), metadata: undefined }, /metadata is missing/],
      [{ ...fresh(), history: {} }, /history is object, expected a list/],
    ];
    for (const [blob, why] of cases) assert.throws(() => assertSession(blob, "s1"), (e: unknown) => e instanceof InvalidSessionError && why.test(e.message), why.source);
  });

  it("migrateSession turns a 3.x row into one v4 session at version 0: the run at its step, claims for what ran", () => {
    const legacy = {
      id: "old", version: 12, data: { nome: "Rui" }, metadata: { at: new Date(0) },
      currentFlow: { id: "boas", enteredAt: "2026-09-01T13:05:12.000Z" }, currentStep: { id: "nome" },
      flowHistory: [{ flowId: "antes", completed: true, exitedAt: "2026-09-01T13:00:00.000Z" }, { flowId: "boas", completed: false }],
      signals: { triggers: { pediu_humano: { firstTriggeredAt: "2026-09-01T12:00:00.000Z", lastTriggeredAt: "2026-09-01T13:05:12.000Z", count: 2 } } },
    };
    const s = migrateSession(legacy, { sessionId: "conv", flowIdOf: (k) => k.replace("_", "-") });
    // upstream's 3.x names: a signal is claimed at its last firing (a cooldown reads it), the run is `#legacy`
    assert.deepEqual(s.claims["pediu-humano:conv:"], { at: "2026-09-01T13:05:12.000Z" });
    assert.deepEqual(s.runs.map((r) => [r.id, r.trigger]), [["boas#legacy", { kind: "message", key: "legacy" }]]);
    assert.equal(s.version, 0);
    assert.deepEqual(s.data, { nome: "Rui" });
    assert.deepEqual(s.metadata, { at: "1970-01-01T00:00:00.000Z" });
    assert.deepEqual(Object.keys(s.claims), ["antes:conv:", "pediu-humano:conv:", "boas:conv:"]);
    assert.deepEqual(s.runs.map((r) => [r.flowId, r.stepId, r.status, r.anchor, r.dedupeKey]), [["boas", "nome", "asking", "conv", "boas:conv:"]]);
    assert.deepEqual(assertSession(s, "conv"), s, "the result is a valid v4 session");
    assert.deepEqual(migrateSession(fresh("conv"), { sessionId: "conv", flowIdOf: (k) => k }), fresh("conv"));
    assert.throws(() => migrateSession("garbage", { sessionId: "x", flowIdOf: (k) => k }), InvalidSessionError);
    assert.throws(() => migrateSession({ id: "x" }, { sessionId: "x", flowIdOf: (k) => k }), /not a 3.x session either/);
  });

  it("migrateSession dates what the row leaves undated with its `now` option, and rejects malformed 3.x rows", () => {
    const now = new Date("2026-09-21T12:00:00.000Z");
    const s = migrateSession({ id: "c", data: {}, currentFlow: { id: "f" }, signals: { triggers: { sig: { count: 1 } } } }, { sessionId: "c", flowIdOf: (k) => k, now });
    assert.equal(s.runs[0]?.startedAt, now.toISOString());
    assert.deepEqual(s.claims, { "sig:c:": { at: now.toISOString() }, "f:c:": { at: now.toISOString() } });
    for (const row of [{ data: {}, currentFlow: 5 }, { data: {}, currentFlow: { title: "F" } }, { data: {}, flowHistory: [{ completed: true }] }, { data: {}, signals: { triggers: [] } }, { data: {}, metadata: "x" }, { v: 3, data: {} }]) {
      assert.throws(() => migrateSession({ id: "c", ...row }, { sessionId: "c", flowIdOf: (k) => k }), InvalidSessionError, JSON.stringify(row));
    }
    assert.throws(() => migrateSession({ id: "c", data: "nope" }, { sessionId: "c", flowIdOf: (k) => k }), /stored session "c" is unreadable: data is "nope"/);
  });
});

describe("@falai/agent MemoryScheduler", () => {
  it("due(now) hands over and removes what is due, oldest first; a new entry with a queued key replaces the old one; replaces drops the old wake", () => {
    const q = new MemoryScheduler();
    assert.equal(q.add({ key: "b", at: new Date(2000) }), true);
    assert.equal(q.add({ key: "a", at: new Date(3000) }), true);
    assert.equal(q.add({ key: "a", at: new Date(1000) }), false, "false: the key was queued already");
    assert.equal(q.size, 2);
    assert.deepEqual(q.due(new Date(500)), []);
    assert.deepEqual(q.due(new Date(2000)).map((e) => [e.key, e.at.getTime()]), [["a", 1000], ["b", 2000]]);
    assert.equal(q.size, 0);
    q.add({ key: "s1", at: new Date(5000) });
    q.add({ key: "s2", at: new Date(9000), replaces: "s1" });
    assert.deepEqual(q.due(new Date(10_000)).map((e) => e.key), ["s2"]);
    q.add({ key: "x", at: new Date(1) });
    assert.equal(q.remove("x"), true);
    assert.throws(() => q.add({ key: "y", at: new Date("nope") }), TypeError);
  });
});
