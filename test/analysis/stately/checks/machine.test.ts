import assert from "node:assert/strict";
import { AGENT_IMPORTS, analyzeAgent, codes, findingText } from "../../helpers";

const agentWith = (states: string, extra = "") => `
const agent = setupAgent({
  requests: {
    draftEmail: { model: "writer", schemas: { input: z.object({ topic: z.string() }), output: z.string() }, prompt: ({ input }) => input.topic },
  },
});
export const machine = agent.createMachine({
  ${extra}
  states: ${states},
});
`;

describe("checks: unknown-target", () => {
  it("fires on a typo with a nearest-name fix, inside the quotes", () => {
    const body = agentWith(`{ a: { on: { GO: "scorng" } }, scoring: { type: "final" } }`, `initial: "a",`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unknown-target"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "unknown-target"), ["scorng"]);
    assert.equal(a.findings[0]!.fixes?.[0]?.edits[0]?.newText, "scoring");
  });
  it("finds targets in v6 function transitions through if/else, ternaries and early returns", () => {
    const body = agentWith(`{
      a: { on: { GO: ({ event }) => {
        if (event.x) return { target: "b" };
        if (event.y) { return event.z ? { target: "c" } : { target: "nope1" }; }
        return { target: "b", context: {} };
      } }, always: (x) => (x ? { target: "nope2" } : undefined) },
      b: {}, c: {} }`, `initial: "a",`);
    const a = analyzeAgent(body);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "unknown-target").sort(), ["nope1", "nope2"]);
  });
  it("resolves '.child', '#id', 'parent.child' and array/object syntax (near miss: no finding)", () => {
    const body = agentWith(`{
      a: { initial: "x", states: { x: { on: { N: ".." } }, y: { id: "why" } }, on: { IN: ".y", OUT: ["b.inner"], ID: { target: "#why" }, DEEP: "#root.b.inner" } },
      b: { initial: "inner", states: { inner: { on: { BACK: "#root.a" } } } } }`, `id: "root", initial: "a",`);
    const a = analyzeAgent(body.replace(`on: { N: ".." }`, `on: { N: "y" }`));
    assert.deepEqual(codes(a), []);
  });
  it("a root transition must use '.child'", () => {
    const a = analyzeAgent(agentWith(`{ a: { on: { GO: "b" } }, b: {} }`, `initial: "a", on: { RESET: "a" },`));
    assert.deepEqual(codes(a), ["unknown-target"]);
    assert.equal(a.findings[0]!.fixes?.[0]?.edits[0]?.newText, ".a");
    assert.deepEqual(codes(analyzeAgent(agentWith(`{ a: {}, b: {} }`, `initial: "a", on: { RESET: ".b" },`))), []);
  });
  it("says nothing about targets into states it cannot see (an unresolved spread)", () => {
    const a = analyzeAgent(`import { more } from "elsewhere";\n` + agentWith(`{ a: { on: { GO: "fromSpread" } }, ...more }`, `initial: "a",`));
    assert.deepEqual(codes(a), []);
  });
});

describe("checks: unreachable-state", () => {
  it("fires on a state nothing enters (topmost only)", () => {
    const body = agentWith(`{ a: { on: { GO: "b" } }, b: { type: "final" }, orphan: { initial: "x", states: { x: {} } } }`, `initial: "a",`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unreachable-state"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "unreachable-state"), ["orphan"]);
  });
  it("near miss: guards ignored, parallel regions and initials entered, deep targets enter ancestors", () => {
    const a = analyzeAgent(agentWith(`{
      a: { on: { GO: { target: "p.r2.deep", guard: () => false } } },
      p: { type: "parallel", states: {
        r1: { initial: "one", states: { one: {}, two: { } } , on: { T: ".two" } },
        r2: { initial: "s", states: { s: {}, deep: { on: { UP: "s" } } } } } } }`, `initial: "a",`));
    assert.deepEqual(codes(a), []);
  });
  it("near miss: states entered through an XState v6 choice state's `choice` function", () => {
    const a = analyzeAgent(agentWith(`{ a: { on: { GO: "gate" } }, gate: { type: "choice", choice: ({ context }) => (context.ok ? { target: "yes" } : { target: "no" }) }, yes: { type: "final" }, no: { type: "final" } }`, `initial: "a",`));
    assert.deepEqual(codes(a), []);
    const typo = agentWith(`{ gate: { type: "choice", choice: () => ({ target: "yess" }) }, yes: { type: "final" } }`, `initial: "gate",`);
    assert.deepEqual(codes(analyzeAgent(typo)), ["unknown-target"]);
  });
  it("near miss: a computed target makes reachability unknown (no warning)", () => {
    const a = analyzeAgent(agentWith(`{ a: { on: { GO: ({ event }) => ({ target: event.where }) } }, b: {} }`, `initial: "a",`));
    assert.deepEqual(codes(a), []);
  });
  it("a typo'd target does not also make its intended state unreachable", () => {
    const a = analyzeAgent(agentWith(`{ a: { on: { GO: "scorng" } }, scoring: {} }`, `initial: "a",`));
    assert.deepEqual(codes(a), ["unknown-target"]);
  });
  it("every target of a misspelled name, and each misspelled name, counts as reaching the state its fix names", () => {
    const body = agentWith(`{ a: { on: { GO: "scorng", NEXT: "c" } }, c: { on: { X: "scorng", Y: "dd" } }, scoring: {}, d: {} }`, `initial: "a",`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unknown-target", "unknown-target", "unknown-target"]);
    assert.deepEqual(a.findings.map((f) => f.fixes?.[0]?.edits[0]?.newText), ["scoring", "scoring", "d"]);
  });
});

describe("checks: missing-initial / unknown-initial", () => {
  it("fires on a compound state without initial", () => {
    const body = agentWith(`{ a: { states: { x: {}, y: {} } } }`, `initial: "a",`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["missing-initial"]);
    assert.deepEqual(findingText(a, AGENT_IMPORTS + body, "missing-initial"), ["a"]);
  });
  it("fires on an initial naming no child, with a fix", () => {
    const body = agentWith(`{ drafting: {}, done: {} }`, `initial: "draftng",`);
    const a = analyzeAgent(body);
    assert.deepEqual(codes(a), ["unknown-initial"]); // no false unreachable warnings while initial is wrong
    assert.equal(a.findings.find((f) => f.code === "unknown-initial")!.fixes?.[0]?.edits[0]?.newText, "drafting");
  });
  it("near misses: parallel states need no initial; atomic states have none", () => {
    assert.deepEqual(codes(analyzeAgent(agentWith(`{ p: { type: "parallel", states: { r1: {}, r2: {} } } }`, `initial: "p",`))), []);
    assert.deepEqual(codes(analyzeAgent(agentWith(`{ a: {} }`, `initial: "a",`))), []);
  });
});
