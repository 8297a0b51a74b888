// turnStream (one delta per provider chunk, then { done, result } equal to turn()), token usage summed from the
// providers' metadata, `changed` computed, and replays minting the same keys.
import assert from "node:assert/strict";
import { falai, fakeClock, InvalidSessionError } from "@falai/agent";
import { scripted, spoken, understood, T0 } from "./scripted";

const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
const flows = [
  f.flow({ id: "t", name: "T", on: [{ message: ["quer algo"] }], steps: [{ id: "q", collect: ["nome"] }] }),
  f.flow({ id: "r", name: "R", on: [{ silence: "24h" }], steps: [{ id: "p", prompt: "Retome." }] }),
];
const script = () => ({ understand: [understood()], speak: [spoken("Olá, qual é o seu nome?")] });

describe("@falai/agent streaming and usage", () => {
  it("turnStream yields one delta per provider chunk of the reply, then a result deep-equal to turn()", async () => {
    const chunks = (t: string) => t.match(/.{1,5}/g) ?? [t];
    const streamed = f.agent({ name: "Ana", provider: scripted(script(), { chunks }), clock: fakeClock(T0), flows });
    const plain = f.agent({ name: "Ana", provider: scripted(script()), clock: fakeClock(T0), flows });
    const deltas: string[] = [];
    let final: unknown;
    for await (const chunk of streamed.turnStream({ sessionId: "s1", message: "oi", id: "m1" })) {
      if ("delta" in chunk) deltas.push(chunk.delta);
      else final = chunk.result;
    }
    assert.deepEqual(deltas, chunks("Olá, qual é o seu nome?"), "understand is never streamed");
    assert.deepEqual(final, await plain.turn({ sessionId: "s1", message: "oi", id: "m1" }));
  });

  it("when nobody speaks, only the final chunk comes", async () => {
    const agent = f.agent({ name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows, idle: "silent" });
    const chunks = [];
    for await (const c of agent.turnStream({ sessionId: "s1", wake: "silence:r:s1:1", session: { id: "s1", v: 4, version: 1, data: {}, runs: [], claims: {}, inputs: [], metadata: {} } })) chunks.push(c);
    assert.equal(chunks.length, 1);
    assert.equal((chunks[0] as { done: true; result: { changed: boolean } }).result.changed, false);
  });

  it("usage sums promptTokens / completionTokens / cachedInputTokens over every call, and is absent when none was reported", async () => {
    const counted = f.agent({ name: "Ana", provider: scripted(script(), { usage: true }), clock: fakeClock(T0), flows });
    const r = await counted.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.equal(r.llmCalls, 2);
    assert.equal(r.usage?.cachedInputTokens, 2);
    assert.ok((r.usage?.promptTokens ?? 0) > 0 && (r.usage?.completionTokens ?? 0) > 0);
    const silent = f.agent({ name: "Ana", provider: scripted(script()), clock: fakeClock(T0), flows });
    assert.equal("usage" in (await silent.turn({ sessionId: "s1", message: "oi", id: "m1" })), false);
  });

  it("the same input on the same session version mints the same keys, runs and schedule; a repeated id is duplicate-input", async () => {
    const a = f.agent({ name: "Ana", provider: scripted(script()), clock: fakeClock(T0), flows });
    const b = f.agent({ name: "Ana", provider: scripted(script()), clock: fakeClock(T0), flows });
    const first = await a.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const replay = await b.turn({ sessionId: "s1", message: "oi", id: "m1" });
    assert.deepEqual(replay, first);
    assert.deepEqual(first.schedule, [{ key: `silence:r:s1:${Date.parse(T0)}`, at: new Date(Date.parse(T0) + 86_400_000) }]);
    const dup = await a.turn({ sessionId: "s1", session: first.session, message: "oi", id: "m1" });
    assert.deepEqual([dup.changed, dup.outcomes.map((o) => [o.code, o.key]), dup.llmCalls], [false, [["duplicate-input", "m1"]], 0]);
    assert.deepEqual(dup.session, first.session);
  });

  it("a session that cannot be copied (a function inside) is refused with InvalidSessionError", async () => {
    const a = f.agent({ name: "Ana", provider: scripted({}), clock: fakeClock(T0), flows });
    const bad = { id: "s1", v: 4 as const, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: { fn: () => 1 } };
    await assert.rejects(a.turn({ sessionId: "s1", session: bad, wake: "x" }), (e: unknown) => e instanceof InvalidSessionError && /cannot be copied/.test(e.message));
  });

  it("the input session is never mutated, and the result's version is the loaded one", async () => {
    const a = f.agent({ name: "Ana", provider: scripted({ understand: [understood(), understood()], speak: [spoken("Nome?"), spoken("Nome!")] }), clock: fakeClock(T0), flows });
    const t1 = await a.turn({ sessionId: "s1", message: "oi", id: "m1" });
    const loaded = { ...structuredClone(t1.session), version: 7 };
    const before = JSON.stringify(loaded);
    const t2 = await a.turn({ sessionId: "s1", session: loaded, message: "hm", id: "m2" });
    assert.equal(JSON.stringify(loaded), before);
    assert.equal(t2.session.version, 7);
  });
});
