// Definitions spread over files: a builder, flows and an agent factory imported by flows, agents and evals.
import assert from "node:assert/strict";
import { memoryWorkspace, slice } from "./support/project";

const files = {
  "/w/fields.ts": `import { falai } from "@falai/agent";
export const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  plano: { type: "string", enum: ["basico", "pro"], ask: "Qual plano?" },
});
`,
  "/w/flows.ts": `import { f } from "./fields";
export const triagem = f.flow({
  id: "triagem",
  on: [{ message: ["quer um plano"] }],
  steps: [{ id: "quem", collect: ["nome", "planos"], tools: ["preco"] }, { id: "aviso", do: "avisar" }],
});
export const ajuda = f.flow({ id: "ajuda", on: [{ message: [], repeat: "always" }], steps: [{ id: "a", prompt: "Ajude." }] });
export const all = [triagem, ajuda];
`,
  "/w/agent.ts": `import { f } from "./fields";
import { all, triagem } from "./flows";
const outra = f.flow({ id: "outra", on: [{ message: [] }], steps: [{ id: "x", prompt: "y" }] });
export function createAgent(provider: never) {
  return f.agent({ name: "Ana", provider, flows: [...all, outra, triagem], tools: [{ id: "preco", handler: () => ({ value: 1 }) }], actions: { avisar: f.action({ parameters: {}, run: () => ({ ok: true }) }) } });
}
`,
  "/w/agent.test.ts": `import { createAgent } from "./agent";
const agent = createAgent(undefined as never);
const r = await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
`,
};

describe("falai analysis across files", () => {
  const ws = memoryWorkspace(files);

  it("resolves an imported builder: collect refs target the other file's field symbols", () => {
    const a = ws.analyze("/w/flows.ts");
    const nome = a.references.find((r) => r.text === "nome")!;
    assert.equal(nome.targetId, "/w/fields.ts#field:f.nome");
    assert.deepEqual(nome.candidates?.map((c) => c.insertText), ["nome", "plano"]);
    assert.equal(nome.candidates?.[1]!.detail, "string: basico | pro");
    // the typo is reported in the flow's file, with the nearest name
    assert.deepEqual(a.findings.map((f) => [f.code, slice(ws.text("/w/flows.ts"), f.range)]), [["unknown-field", '"planos"']]);
    // and the declaration fix edits the builder's file
    const declare = a.findings[0]!.fixes!.find((x) => x.title.startsWith("Declare"))!;
    assert.equal(declare.edits[0]!.file, "/w/fields.ts");
    // the field symbols themselves belong to fields.ts, whose own analysis declares them
    assert.ok(ws.analyze("/w/fields.ts").symbols.some((s) => s.id === nome.targetId && s.kind === "field"));
  });

  it("an agent includes flows through an imported array, spreads and consts; agent checks point at this file", () => {
    const a = ws.analyze("/w/agent.ts");
    const model = ws.model("/w/agent.ts");
    assert.deepEqual(model.agents[0]!.flows.map((e) => e.flow.id?.text), ["triagem", "ajuda", "outra", "triagem"]);
    const text = ws.text("/w/agent.ts");
    const got = a.findings.map((f) => [f.code, slice(text, f.range)]).sort();
    assert.deepEqual(got, [
      ["catch-all-conflict", "message"], // outra's catch-all: ajuda (flows.ts) comes first, ungated, repeating always
      ["duplicate-flow", "triagem"], // included twice
    ]);
    // tools and actions the flow uses are registered: nothing reported for them
    assert.ok(!a.findings.some((f) => f.code === "unknown-tool" || f.code === "unknown-action"));
  });

  it("an unregistered tool in an imported flow is reported where the agent includes the flow", () => {
    const ws2 = memoryWorkspace({ ...files, "/w/agent.ts": files["/w/agent.ts"].replace(`tools: [{ id: "preco", handler: () => ({ value: 1 }) }], `, "") });
    const a = ws2.analyze("/w/agent.ts");
    const tool = a.findings.filter((f) => f.code === "unknown-tool");
    assert.deepEqual(tool.map((f) => slice(ws2.text("/w/agent.ts"), f.range)), ["all", "triagem"]);
    assert.match(tool[0]!.message, /Flow 'triagem': Step 'quem' names tool 'preco', which agent 'Ana' does not have/);
  });

  it("an eval file's agent.turn resolves through an imported factory", () => {
    const a = ws.analyze("/w/agent.test.ts");
    const model = ws.model("/w/agent.test.ts");
    assert.equal(model.turnSites.length, 1);
    assert.equal(model.turnSites[0]!.agent?.name, "Ana");
    assert.equal(model.turnSites[0]!.agent?.file, "/w/agent.ts");
    assert.deepEqual(a.lenses.map((l) => l.target), [{ kind: "run-turns", file: "/w/agent.test.ts", line: 3 }]);
    assert.deepEqual(a.symbols, [], "the eval file declares nothing");
  });
});

describe("falai scripted understand replies", () => {
  it("keys of flows / mentions / extract name the eval agent's flows; keys of fields name its fields", () => {
    const ws = memoryWorkspace({
      ...files,
      "/w/agent.test.ts": `import { createAgent } from "./agent";
const understand = [{ flows: { triagem: 90, "ajuda": 10, sumiu: 0 }, mentions: { outra: true }, extract: {}, branches: {}, fields: { nome: "Ana", idade: 3 } }];
const agent = createAgent(undefined as never);
await agent.turn({ sessionId: "s1", message: "oi", id: "m1" });
`,
    });
    const a = ws.analyze("/w/agent.test.ts");
    const text = ws.text("/w/agent.test.ts");
    assert.deepEqual(a.references.map((r) => [r.role, r.kind, slice(text, r.range), r.targetId]), [
      ["flow-ref", "flow", "triagem", "/w/flows.ts#flow:triagem"],
      ["flow-ref", "flow", "ajuda", "/w/flows.ts#flow:ajuda"],
      ["flow-ref", "flow", "sumiu", undefined],
      ["flow-ref", "flow", "outra", "/w/agent.ts#flow:outra"],
      ["collect", "field", "nome", "/w/fields.ts#field:f.nome"],
      ["collect", "field", "idade", undefined],
    ]);
    assert.deepEqual(a.references[0]!.candidates?.map((c) => c.insertText), ["triagem", "ajuda", "outra"]);
    assert.deepEqual(a.findings, [], "script keys are references, not checks");
  });

  it("an agent's flows list is not an understand reply", () => {
    const a = memoryWorkspace(files).analyze("/w/agent.ts");
    assert.ok(!a.references.some((r) => r.role === "flow-ref"));
  });
});
