// duplicate-state-id: two states of one machine with the same literal id, or a state with the machine's
// own id — and what XState (the version bundled) does with such a machine, which is why it is a finding.
import assert from "node:assert/strict";
import { createActor, createMachine } from "xstate";
import { AGENT_IMPORTS, analyzeAgent } from "../../helpers";

/** The duplicate-state-id findings of an agent file: the text each covers, and its message. */
function duplicates(body: string): Array<{ at: string; message: string }> {
  const text = AGENT_IMPORTS + body;
  return analyzeAgent(body)
    .findings.filter((f) => f.code === "duplicate-state-id")
    .map((f) => ({ at: text.slice(f.range.start, f.range.end), message: f.message }));
}

describe("stately check: duplicate-state-id", () => {
  it("XState accepts two states with one id and a #id target enters the one written last", () => {
    // (v6's types would refuse the event: the config is what a JavaScript user writes)
    const config = { id: "m", initial: "a", states: { a: { id: "same", on: { GO: "#same" } }, b: { id: "same" } } };
    const machine = createMachine(config as Parameters<typeof createMachine>[0]);
    const actor = createActor(machine).start();
    actor.send({ type: "GO" });
    assert.equal(actor.getSnapshot().value, "b");
    actor.stop();
  });

  it("two states of one machine with the same id: a finding at each id, naming the other and the one XState keeps", () => {
    const found = duplicates(`export const m = createMachine({ initial: "a", states: { a: { id: "same", on: { GO: "#same" } }, b: { id: "same" }, c: {} } });\n`);
    assert.deepEqual(found, [
      { at: "same", message: 'State "a" has the id "same", as "b" of the machine `m` (agent.ts) does. XState keeps only the last one, so "#same" enters "b".' },
      { at: "same", message: 'State "b" has the id "same", as "a" of the machine `m` (agent.ts) does. XState keeps only the last one, so "#same" enters "b".' },
    ]);
    const severities = analyzeAgent(`export const m = createMachine({ initial: "a", states: { a: { id: "same", on: { GO: "b" } }, b: { id: "same" } } });\n`).findings.map((f) => `${f.code} ${f.severity}`);
    assert.deepEqual(severities, ["duplicate-state-id error", "duplicate-state-id error"]);
  });

  it("nested states count, and so does a state with the machine's own id", () => {
    const nested = duplicates(`export const m = createMachine({ initial: "a", states: { a: { initial: "x", states: { x: { id: "dup" } } }, b: { initial: "y", states: { y: { id: "dup" } } } } });\n`);
    assert.deepEqual(nested.map((f) => f.at), ["dup", "dup"]);
    assert.match(nested[0]!.message, /"#dup" enters "b\.y"/);
    const root = duplicates(`export const m = createMachine({ id: "top", initial: "a", states: { a: { id: "top" } } });\n`);
    assert.deepEqual(root, [{ at: "top", message: 'State "a" has the id "top", as the machine root of the machine `m` (agent.ts) does. XState keeps only the last one, so "#top" enters "a".' }]);
  });

  it("quiet on distinct ids, on ids it cannot read, and across machines", () => {
    assert.deepEqual(duplicates(`export const m = createMachine({ id: "m", initial: "a", states: { a: { id: "one" }, b: { id: "two" }, c: { id: "m.c" }, d: {} } });\n`), []);
    assert.deepEqual(duplicates(`declare const idOf: (s: string) => string;\nexport const m = createMachine({ initial: "a", states: { a: { id: idOf("x") }, b: { id: idOf("x") } } });\n`), []);
    assert.deepEqual(duplicates(`export const m1 = createMachine({ initial: "a", states: { a: { id: "same" } } });\nexport const m2 = createMachine({ initial: "a", states: { a: { id: "same" } } });\n`), []);
  });

  it("an integer key reorders the states XState reads: the finding stays, without naming the one kept", () => {
    const found = duplicates(`export const m = createMachine({ initial: "b", states: { b: { id: "same" }, 1: { id: "same" } } });\n`);
    assert.equal(found.length, 2);
    for (const f of found) assert.doesNotMatch(f.message, /keeps/);
  });
});
