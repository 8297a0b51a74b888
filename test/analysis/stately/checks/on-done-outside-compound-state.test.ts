// on-done-outside-compound-state: a state's own onDone on a state with no child states — and what XState
// (the version bundled) does with it, which is why it is a finding: the transition is never taken.
import assert from "node:assert/strict";
import { createActor, createAsyncLogic, createMachine } from "xstate";
import { AGENT_IMPORTS, analyzeAgent } from "../../helpers";

/** The on-done-outside-compound-state findings of an agent file: the text each covers, and its message. */
function found(body: string): Array<{ at: string; message: string }> {
  const text = AGENT_IMPORTS + body;
  return analyzeAgent(body)
    .findings.filter((f) => f.code === "on-done-outside-compound-state")
    .map((f) => ({ at: text.slice(f.range.start, f.range.end), message: f.message }));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("stately check: on-done-outside-compound-state", () => {
  it("XState never takes a state's own onDone without child states; the invoke's onDone and a compound's are taken", async () => {
    const done = createAsyncLogic({ run: async () => 42 });
    const valueAfter = async (a: object) => {
      const actor = createActor(createMachine({ initial: "a", states: { a, b: {} } } as Parameters<typeof createMachine>[0])).start();
      await settle();
      const value = actor.getSnapshot().value;
      actor.stop();
      return value;
    };
    assert.equal(await valueAfter({ invoke: { src: done }, onDone: "b" }), "a");
    assert.equal(await valueAfter({ invoke: { src: done, onDone: "b" } }), "b");
    // a final child's own onDone: not taken; its compound parent's is
    const nested = createMachine({ id: "m", initial: "p", states: { p: { initial: "x", states: { x: { on: { GO: "y" } }, y: { type: "final", onDone: "#m.q" } }, onDone: "r" }, q: {}, r: {} } } as Parameters<typeof createMachine>[0]);
    const actor = createActor(nested).start();
    actor.send({ type: "GO" });
    assert.equal(actor.getSnapshot().value, "r");
    actor.stop();
  });

  it("a state-level onDone beside an invoke: a warning at the key, pointing at the invoke", () => {
    const body = `export const m = createMachine({ initial: "loading", states: { loading: { invoke: { src: "load" }, onDone: "ready" }, ready: {} } });\n`;
    assert.deepEqual(found(body), [
      { at: "onDone", message: 'State "loading" of the machine `m` (agent.ts) has no child states, so its own onDone never fires: XState takes a state\'s onDone only when a compound state reaches a final child or a parallel state\'s regions are all done. To go on when its invoke is done, move it into the invoke: invoke: { src, onDone }.' },
    ]);
    const severities = analyzeAgent(body).findings.filter((f) => f.code === "on-done-outside-compound-state").map((f) => f.severity);
    assert.deepEqual(severities, ["warning"]);
  });

  it("a final or atomic state's own onDone, nested too, without the invoke hint", () => {
    const nested = found(`export const m = createMachine({ initial: "p", states: { p: { initial: "x", states: { x: { onDone: "y" }, y: { type: "final", onDone: { target: "x" } } }, onDone: "q" }, q: {} } });\n`);
    assert.deepEqual(nested.map((f) => f.at), ["onDone", "onDone"]);
    assert.match(nested[0]!.message, /^State "p\.x" of/);
    assert.match(nested[1]!.message, /^State "p\.y" of/);
    for (const f of nested) assert.doesNotMatch(f.message, /invoke/);
  });

  it("quiet on an invoke's onDone (inline, in a list, through a const), a compound or parallel state's, the root's, and a state it cannot read whole", () => {
    assert.deepEqual(found(`export const m = createMachine({ initial: "a", states: { a: { invoke: { src: "load", onDone: "b" } }, b: { invoke: [{ src: "x", onDone: "a" }] } } });\n`), []);
    assert.deepEqual(found(`const loadIt = { src: "load", onDone: "b" };\nexport const m = createMachine({ initial: "a", states: { a: { invoke: loadIt }, b: {} } });\n`), []);
    assert.deepEqual(found(`export const m = createMachine({ initial: "p", states: { p: { initial: "x", states: { x: { type: "final" } }, onDone: "q" }, q: { type: "parallel", states: { r: { initial: "s", states: { s: { type: "final" } } } }, onDone: "p" } } });\n`), []);
    assert.deepEqual(found(`export const m = createMachine({ initial: "a", onDone: { actions: [] }, states: { a: { type: "final" } } });\n`), []);
    assert.deepEqual(found(`declare const more: object;\nexport const m = createMachine({ initial: "a", states: { a: { ...more, onDone: "b" }, b: {} } });\n`), []);
    assert.deepEqual(found(`declare const children: Record<string, object>;\nexport const m = createMachine({ initial: "a", states: { a: { states: children, onDone: "b" }, b: {} } });\n`), []);
  });
});
