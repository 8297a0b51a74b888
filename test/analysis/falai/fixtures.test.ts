// The cross-file fixture workspace (test/fixtures/analysis/falai) through the real workspace: clean, and
// fully understood (spread fields, steps from consts and spreads, every trigger, flows from an imported
// array, tools and actions in every form, turn and turnStream eval sites).
import assert from "node:assert/strict";
import * as path from "node:path";
import { createWorkspace } from "../../../server/src/analysis";

const dir = path.resolve(__dirname, "../../fixtures/analysis/falai");
const at = (f: string) => path.join(dir, f);

describe("falai fixture workspace", () => {
  const ws = createWorkspace({ roots: [dir] });

  for (const f of ["fields.ts", "flows.ts", "agent.ts", "agent.test.ts"]) {
    it(`${f}: zero findings`, () => assert.deepEqual(ws.analyze(at(f)).findings, []));
  }

  it("fields: spread fields are declared too", () => {
    const names = ws.analyze(at("fields.ts")).symbols.filter((s) => s.kind === "field").map((s) => `${s.name}:${s.detail}`);
    assert.deepEqual(names, ["nome:string", "email:string", "empresa:string", "pessoas:number", "plano:enum: basico | pro | empresa", "urgente:boolean", "trecho:string"]);
  });

  it("flows: steps from spreads of consts, a mention trigger, references into the fields file", () => {
    const a = ws.analyze(at("flows.ts"));
    const steps = a.symbols.filter((s) => s.kind === "step" && s.parentId?.endsWith("#flow:vendas")).map((s) => s.name);
    assert.deepEqual(steps, ["quem", "tamanho", "orcamento", "espera", "resumo", "tchau", "humano"]);
    const trecho = a.references.find((r) => r.text === "trecho")!;
    assert.equal(trecho.targetId, `${at("fields.ts")}#field:f.trecho`);
    assert.match(a.symbols.find((s) => s.id.endsWith("#flow:concorrente"))!.summary!, /a mention of "um concorrente ou o preço de um concorrente" \(extracts trecho\)/);
    // tools / actions named in a flow file with no agent resolve to nothing (the agent is elsewhere)
    assert.equal(a.references.find((r) => r.role === "tool")!.targetId, undefined);
  });

  it("agent: flows through an imported array spread and a const; tools and actions in every form", () => {
    const a = ws.analyze(at("agent.ts"));
    const agent = a.symbols.find((s) => s.kind === "agent")!;
    assert.equal(agent.detail, "flows: vendas, concorrente, retomar, conversa");
    assert.deepEqual(a.symbols.filter((s) => s.kind === "tool" || s.kind === "action").map((s) => [s.kind, s.name]), [["tool", "orcamento"], ["action", "avisar-vendas"], ["action", "registrar"]]);
  });

  it("eval file: a lens on turn and on turnStream", () => {
    const a = ws.analyze(at("agent.test.ts"));
    assert.deepEqual(a.lenses.map((l) => l.target), [9, 12].map((line) => ({ kind: "run-turns", file: at("agent.test.ts"), line })));
  });
});
