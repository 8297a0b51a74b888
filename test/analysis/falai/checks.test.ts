// Each flow check: a case that fires (code, exact range) and a near miss that must not.
import assert from "node:assert/strict";
import { analyzeSource, applyEdits, slice } from "./support/project";

const HEAD = `import { falai } from "@falai/agent";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  empresa: { type: "string", ask: "Pergunte a empresa." },
});
`;

/** Findings of `body` appended to a file with the standard field set. */
function check(body: string) {
  const r = analyzeSource(HEAD + body);
  return { ...r, at: (code: string) => r.findings.filter((f) => f.code === code).map((f) => slice(r.text, f.range)) };
}

const flow = (steps: string, on = `[{ message: ["oi"] }]`, id = "t") => `f.flow({ id: "${id}", name: "T", on: ${on}, steps: [${steps}] });\n`;

describe("falai checks", () => {
  describe("unknown-field", () => {
    it("fires on a collect of an undeclared field, with the nearest name and a declaration as fixes", () => {
      const r = check(flow(`{ id: "a", collect: ["nome", "empressa"] }`));
      assert.deepEqual(r.at("unknown-field"), ['"empressa"']);
      const [finding] = r.findings;
      assert.equal(finding.severity, "error");
      assert.match(finding.message, /Did you mean 'empresa'/);
      const [rename, declare] = finding.fixes!;
      assert.equal(rename.preferred, true);
      assert.match(applyEdits(r.text, rename.edits), /collect: \["nome", "empresa"\]/);
      const declared = applyEdits(r.text, declare.edits);
      assert.match(declared, /  empresa: \{ type: "string", ask: "Pergunte a empresa." \},\n  empressa: \{ type: "string", ask: "…" \},\n\}\);/);
      assert.deepEqual(analyzeSource(declared).findings, [], "the declaration fix leaves a clean file");
    });

    it("fires on a mention's extract naming an undeclared field", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }`, `[{ mention: "um concorrente", extract: ["trecho"] }]`));
      assert.deepEqual(r.at("unknown-field"), ['"trecho"']);
    });

    it("does not fire for declared fields, or when the field set cannot be fully known", () => {
      assert.deepEqual(check(flow(`{ id: "a", collect: ["nome", "empresa"] }`)).findings, []);
      const open = analyzeSource(`import { falai } from "@falai/agent";\nimport { extra } from "./extra";\nconst f = falai().fields({ ...extra, nome: { type: "string" } });\nf.flow({ id: "t", on: [{ message: [] }], steps: [{ id: "a", collect: ["cidade"] }] });\n`);
      assert.deepEqual(open.findings, []);
    });

    it("declaration fix keeps a single-line object's style", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({ nome: { type: "string" } });\nf.flow({ id: "t", on: [{ message: [] }], steps: [{ id: "a", collect: ["idade"] }] });\n`);
      const declare = r.findings[0].fixes!.find((x) => x.title.startsWith("Declare"))!;
      assert.match(applyEdits(r.text, declare.edits), /fields\(\{ nome: \{ type: "string" \}, idade: \{ type: "string", ask: "…" \} \}\)/);
    });
  });

  describe("unknown-step", () => {
    it("fires on an else and a goto that name no step, suggesting the nearest", () => {
      const r = check(flow(`{ id: "pergunta", prompt: "x", branches: [{ when: "quer falar", goto: "pergunt" }] }, { id: "w", wait: "1h", else: "fim" }`));
      assert.deepEqual(r.at("unknown-step"), ['"pergunt"', '"fim"']);
      const fix = r.findings.find((f) => slice(r.text, f.range) === '"pergunt"')!.fixes![0];
      assert.match(applyEdits(r.text, fix.edits), /goto: "pergunta"/);
    });

    it('does not fire for "end" or an existing step', () => {
      const r = check(flow(`{ id: "a", prompt: "x", branches: [{ when: "y", goto: "b" }] }, { id: "b", wait: "1h", else: "end" }`));
      assert.deepEqual(r.findings, []);
    });
  });

  describe("duplicate-step", () => {
    it("fires on the second step with an id", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }, { id: "b", prompt: "y" }, { id: "a", prompt: "z" }`));
      assert.deepEqual(r.at("duplicate-step"), ['"a"']);
      assert.equal(r.findings[0].range.startLine, 5);
      assert.ok(r.findings[0].range.start > r.text.indexOf('id: "b"'));
    });

    it("does not fire for the same step id in two flows", () => {
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`, "u")).findings, []);
    });
  });

  describe("duplicate-flow", () => {
    it("fires on a second flow with the same id in a file", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`));
      assert.deepEqual(r.at("duplicate-flow"), ['"t"']);
      assert.equal(r.findings[0].range.startLine, 6);
    });

    it("fires when an agent includes the same flow twice", () => {
      const r = check(`const t = ${flow(`{ id: "a", prompt: "x" }`)}f.agent({ name: "A", provider: undefined as never, flows: [t, t] });\n`);
      assert.deepEqual(r.at("duplicate-flow"), ["t"]);
      assert.ok(r.findings[0].range.start > r.text.indexOf("[t, t]") + 2);
    });

    it("does not fire for distinct ids", () => {
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x" }`) + flow(`{ id: "a", prompt: "x" }`, `[{ silence: "1h" }]`, "u")).findings, []);
    });
  });

  describe("bad-duration", () => {
    it("fires on wait and silence strings that do not parse, and negative milliseconds", () => {
      const r = check(flow(`{ id: "a", prompt: "x" }, { id: "w", wait: "2 dias", else: "end" }, { id: "v", wait: -5 }`, `[{ silence: "24hrs" }]`));
      assert.deepEqual(r.at("bad-duration"), ['"24hrs"', '"2 dias"', "-5"]);
    });

    it("fires on a fake clock advanced by a bad duration", () => {
      const r = analyzeSource(`import { fakeClock } from "@falai/agent";\nconst clock = fakeClock("2026-09-20T10:00:00.000Z");\nclock.advance("1 day");\nclock.advance("1d");\n`);
      assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["bad-duration", '"1 day"']]);
    });

    it("does not fire for good durations, milliseconds or expressions", () => {
      const r = check(`const D = someDuration();\n` + flow(`{ id: "a", prompt: "x" }, { id: "w", wait: "1h30m", else: "end" }, { id: "v", wait: 90000 }, { id: "u", wait: D }`, `[{ silence: "24h" }]`));
      assert.deepEqual(r.findings, []);
    });
  });

  describe("unreachable-step", () => {
    it("fires on the step after an unconditional goto that nothing jumps to", () => {
      const r = check(flow(`{ id: "a", prompt: "x", branches: [{ when: "quer", goto: "c" }, { goto: "end" }] }, { id: "b", prompt: "y" }, { id: "c", prompt: "z" }`));
      assert.deepEqual(r.at("unreachable-step"), ['"b"']);
      assert.equal(r.findings[0].severity, "warning");
    });

    it("does not fire when a wait's else, a later goto or plain order reaches the step", () => {
      // b is reached through w's else; w through a's conditional goto; c through order after b
      const r = check(flow(`{ id: "a", prompt: "x", branches: [{ when: "quer", goto: "w" }, { goto: "end" }] }, { id: "b", prompt: "y" }, { id: "c", prompt: "z" }, { id: "w", wait: "1h", else: "b" }`));
      assert.deepEqual(r.at("unreachable-step"), []);
      // conditional branches always fall through
      assert.deepEqual(check(flow(`{ id: "a", prompt: "x", branches: [{ when: "quer", goto: "end" }] }, { id: "b", prompt: "y" }`)).findings, []);
      // a goto we cannot read may go anywhere
      assert.deepEqual(check(`declare const next: string;\n` + flow(`{ id: "a", prompt: "x", branches: [{ goto: next }] }, { id: "b", prompt: "y" }`)).at("unreachable-step"), []);
    });
  });

  describe("untriggered-flow", () => {
    it("fires on a flow without on, and with an empty on", () => {
      const r = check(`f.flow({ id: "x", name: "X", steps: [{ id: "a", prompt: "p" }] });\nf.flow({ id: "y", name: "Y", on: [], steps: [{ id: "a", prompt: "p" }] });\n`);
      assert.deepEqual(r.at("untriggered-flow"), ['"x"', '"y"']);
    });

    it("does not fire for message, silence, mention or dynamic triggers", () => {
      const r = check(`declare const triggers: never[];\n` + flow(`{ id: "a", prompt: "p" }`, `[{ mention: "concorrente" }]`) + flow(`{ id: "a", prompt: "p" }`, `triggers`, "u") + flow(`{ id: "a", prompt: "p" }`, `[{ silence: "1h" }]`, "v"));
      assert.deepEqual(r.findings, []);
    });
  });

  describe("catch-all-conflict", () => {
    it("fires on the second catch-all of a file", () => {
      const r = check(flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "x") + flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "y"));
      assert.deepEqual(r.at("catch-all-conflict"), ["message"]);
      assert.equal(r.findings[0].range.startLine, 6);
    });

    it("does not fire for one catch-all beside message flows with phrases", () => {
      const r = check(flow(`{ id: "a", prompt: "p" }`, `[{ message: [] }]`, "x") + flow(`{ id: "a", prompt: "p" }`, `[{ message: ["oi"] }]`, "y"));
      assert.deepEqual(r.findings, []);
    });
  });

  describe("unknown-tool / unknown-action", () => {
    const agentWith = (regs: string, steps: string) => check(`const t = ${flow(steps)}f.agent({ name: "A", provider: undefined as never, flows: [t]${regs} });\n`);

    it("fires on a step's tool and action the agent does not register (array and object forms)", () => {
      const r = agentWith(`, tools: [f.tool({ name: "orcamento", description: "Calcula" })], actions: { notificar: async () => {} }`, `{ id: "a", prompt: "p", tools: ["orcamentos"], do: ["avisar"] }`);
      assert.deepEqual(r.at("unknown-tool"), ['"orcamentos"']);
      assert.deepEqual(r.at("unknown-action"), ['"avisar"']);
      assert.match(r.findings.find((f) => f.code === "unknown-tool")!.message, /Did you mean 'orcamento'/);
    });

    it("fires when the agent has no actions key, even if an f.action was defined but not passed", () => {
      const r = agentWith(``, `{ id: "a", prompt: "p", do: ["notificar"] }`);
      assert.deepEqual(r.at("unknown-action"), ['"notificar"']);
      const defined = check(`const notificar = f.action("notificar", async () => {});\nconst t = ${flow(`{ id: "a", prompt: "p", do: "notificar" }`)}f.agent({ name: "A", provider: undefined as never, flows: [t] });\n`);
      assert.deepEqual(defined.at("unknown-action"), ['"notificar"']);
    });

    it("does not fire for registered names (f.action calls, keyed objects, f.tool by name)", () => {
      assert.deepEqual(agentWith(`, tools: { orcamento: { description: "x" } }, actions: [f.action("notificar", async () => {})]`, `{ id: "a", prompt: "p", tools: ["orcamento"], do: ["notificar"] }`).findings, []);
      assert.deepEqual(agentWith(`, tools: [f.tool("orcamento", { description: "x" })]`, `{ id: "a", prompt: "p", tools: ["orcamento"] }`).findings, []);
    });

    it("does not fire when the registrations are not statically known, or the flow is in no agent", () => {
      assert.deepEqual(agentWith(`, actions: makeActions()`, `{ id: "a", prompt: "p", do: ["notificar"] }`).findings, []);
      assert.deepEqual(agentWith(`, actions: { ...common, x: () => {} }`, `{ id: "a", prompt: "p", do: ["notificar"] }`).findings, []);
      assert.deepEqual(check(flow(`{ id: "a", prompt: "p", do: ["notificar"], tools: ["x"] }`)).findings, []);
    });
  });

  describe("bad-field-type", () => {
    it("fires on an unknown type (with the nearest) and on an enum without values", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({\n  idade: { type: "numbr" },\n  plano: { type: "enum" },\n  cor: { type: "enum", values: [] },\n});\n`);
      assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["bad-field-type", '"numbr"'], ["bad-field-type", '"enum"'], ["bad-field-type", '"enum"']]);
      assert.match(applyEdits(r.text, r.findings[0].fixes![0].edits), /idade: \{ type: "number" \}/);
    });

    it("does not fire for the four types with enum values", () => {
      const r = analyzeSource(`import { falai } from "@falai/agent";\nconst f = falai().fields({\n  a: { type: "string" }, b: { type: "number" }, c: { type: "boolean" }, d: { type: "enum", values: ["x", "y"] },\n});\n`);
      assert.deepEqual(r.findings, []);
    });
  });
});
