// Half-typed files give a partial model, never an exception; suppression comments silence real findings.
import assert from "node:assert/strict";
import { AGENT_IMPORTS, analyzeAgent, codes } from "./helpers";

const MACHINE = `const agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });
export const machine = agent.createMachine({
  initial: "a",
  states: {
    a: { invoke: { src: "draft", onDone: "b" } },
    b: { on: { NEXT: "c" } },
    c: { type: "final" },
  },
});
`;

describe("half-typed files", () => {
  it("`target: ` with nothing after: the other states are still there, and no false unreachable warning", () => {
    const a = analyzeAgent(MACHINE.replace(`on: { NEXT: "c" }`, `on: { NEXT: { target: } }`));
    assert.deepEqual(codes(a), []);
    assert.deepEqual(a.symbols.filter((s) => s.kind === "state").map((s) => s.name), ["a", "b", "c"]);
  });
  it("an unterminated string still resolves what was typed so far", () => {
    const text = MACHINE.replace(`onDone: "b" } },`, `onDone: "b`);
    const a = analyzeAgent(text);
    assert.ok(a.symbols.some((s) => s.kind === "machine"));
    assert.ok(a.references.some((r) => r.role === "src" && r.text === "draft"));
  });
  it("missing closing braces: a partial model", () => {
    const cut = MACHINE.slice(0, MACHINE.indexOf(`b: { on`));
    const a = analyzeAgent(cut);
    assert.deepEqual(a.symbols.filter((s) => s.kind === "state").map((s) => s.name), ["a"]);
  });
  it("an empty target string (an editor's auto-closed quotes) offers every sibling for completion", () => {
    const a = analyzeAgent(MACHINE.replace(`NEXT: "c"`, `NEXT: ""`));
    const ref = a.references.find((r) => r.role === "target" && r.text === "")!;
    assert.deepEqual(ref.candidates!.map((c) => c.insertText), ["a", "b", "c"]);
    assert.equal(ref.range.start, ref.range.end);
  });
  it("an unterminated target ends at the end of its line", () => {
    const text = AGENT_IMPORTS + MACHINE.replace(`NEXT: "c"`, `NEXT: "c`);
    const a = analyzeAgent(MACHINE.replace(`NEXT: "c"`, `NEXT: "c`));
    const ref = a.references.find((r) => r.role === "target" && r.text.startsWith("c"))!;
    assert.equal(text.slice(ref.range.start, ref.range.end), ref.text);
  });
});

describe("suppression comments in a real file", () => {
  const typo = MACHINE.replace(`NEXT: "c"`, `NEXT: "cc"`);
  it("the finding is there without a comment", () => {
    assert.deepEqual(codes(analyzeAgent(typo)), ["unknown-target"]);
  });
  for (const comment of ["// agent-lens-ignore-next-line unknown-target", "// agent-lens-ignore-next-line", "// agent-lens-ignore-next-line unreachable-state, unknown-target -- typo kept on purpose"]) {
    it(`"${comment}" silences it`, () => {
      const text = typo.replace(`    b: { on:`, `    ${comment}\n    b: { on:`);
      assert.deepEqual(codes(analyzeAgent(text)), []);
    });
  }
  it("a comment for another code does not", () => {
    const text = typo.replace(`    b: { on:`, `    // agent-lens-ignore-next-line unreachable-state\n    b: { on:`);
    assert.deepEqual(codes(analyzeAgent(text)), ["unknown-target"]);
    assert.ok(AGENT_IMPORTS.length > 0);
  });
});
