// The cross-file fixture workspace (test/fixtures/analysis/falai), written with every @falai/agent v4
// construct, through the real workspace: clean, and fully understood (spread fields, steps from consts
// and spreads, every trigger and step kind, every jump, a stored JSON flow, every registry, turn and
// turnStream eval sites with a start and an event).
import assert from "node:assert/strict";
import * as path from "node:path";
import { createWorkspace } from "../../../server/src/analysis";

const dir = path.resolve(__dirname, "../../fixtures/analysis/falai");
const at = (f: string) => path.join(dir, f);
const id = (file: string, rest: string) => `${at(file)}#${rest}`;

describe("falai fixture workspace", () => {
  const ws = createWorkspace({ roots: [dir] });

  for (const f of ["fields.ts", "flows.ts", "agent.ts", "agent.test.ts"]) {
    it(`${f}: zero findings`, () => assert.deepEqual(ws.analyze(at(f)).findings, []));
  }

  it("fields: spread fields are declared too, enums show their values", () => {
    const names = ws.analyze(at("fields.ts")).symbols.filter((s) => s.kind === "field").map((s) => `${s.name}:${s.detail}`);
    assert.deepEqual(names, ["nome:string", "email:string", "empresa:string", "pessoas:integer", "plano:string: basico | pro | empresa", "urgente:boolean", "orcamento:number"]);
  });

  it("flows: steps from spreads of consts, every step kind, and a stored JSON flow", () => {
    const a = ws.analyze(at("flows.ts"));
    const steps = a.symbols.filter((s) => s.kind === "step" && s.parentId?.endsWith("#flow:vendas")).map((s) => s.name);
    assert.deepEqual(steps, ["quem", "tamanho", "orcamento", "registra", "espera", "resumo", "tchau", "confirma", "ok", "humano"]);
    assert.deepEqual(a.symbols.filter((s) => s.kind === "flow").map((s) => [s.name, s.detail]), [
      ["vendas", "message"],
      ["concorrente", "mention"],
      ["retomar", "silence 24h"],
      ["proposta", "event entrou_na_etapa"],
      ["enterprise", "started by hand"],
      ["boas-vindas", "catch-all"],
    ]);
    assert.match(a.symbols.find((s) => s.id === id("flows.ts", "step:proposta.espera"))!.summary!, /Waits for the event `reuniao_marcada` up to 7d, then goes to the next step; without it, `lembra`/);
    assert.match(a.symbols.find((s) => s.id === id("flows.ts", "step:vendas.ok"))!.summary!, /If the condition holds: `tchau`; else `confirma` \(clearing urgente\)/);
  });

  it("flows: jumps of every form resolve to steps and flows; field names in every place resolve across files", () => {
    const a = ws.analyze(at("flows.ts"));
    const next = a.references.filter((r) => r.role === "next").map((r) => [r.text, r.targetId?.replace(/^.*#/, "")]);
    assert.deepEqual(next, [["humano", "step:vendas.humano"], ["quem", "step:vendas.quem"], ["humano", "step:vendas.humano"], ["orcamento", "step:vendas.orcamento"], ["humano", "step:vendas.humano"], ["confirma", "step:vendas.confirma"], ["tchau", "step:vendas.tchau"], ["confirma", "step:vendas.confirma"], ["end", undefined], ["end", undefined], ["lembra", "step:proposta.lembra"], ["end", undefined]]);
    assert.deepEqual(a.references.filter((r) => r.role === "flow-ref").map((r) => [r.text, r.targetId]), [["enterprise", id("flows.ts", "flow:enterprise")]]);
    const fields = a.references.filter((r) => r.kind === "field");
    assert.ok(fields.length >= 10);
    for (const r of fields) assert.equal(r.targetId, id("fields.ts", `field:f.${r.text}`), r.text);
    // names of registries the agent (in another file) declares are references with candidates from nothing here
    assert.deepEqual([...new Set(a.references.filter((r) => ["tool", "action", "event", "condition"].includes(r.role)).map((r) => `${r.role}:${r.text}`))].sort(), ["action:avisar-vendas", "action:registrar", "condition:naEtapa", "condition:tagsAny", "event:entrou_na_etapa", "event:reuniao_marcada", "tool:orcamento"]);
  });

  it("agent: flows through an imported array spread and consts; every registry, by its own name", () => {
    const a = ws.analyze(at("agent.ts"));
    const agent = a.symbols.find((s) => s.kind === "agent")!;
    assert.equal(agent.detail, "flows: vendas, concorrente, retomar, proposta, enterprise, boas-vindas");
    assert.deepEqual(a.symbols.filter((s) => s.parentId === agent.id).map((s) => [s.kind, s.name]), [
      ["tool", "orcamento"],
      ["action", "registrar"],
      ["action", "avisar-vendas"],
      ["event", "entrou_na_etapa"],
      ["event", "reuniao_marcada"],
      ["condition", "naEtapa"],
      ["condition", "tagsAny"],
    ]);
    assert.equal(a.symbols.find((s) => s.kind === "action" && s.name === "registrar")!.shorthand, true);
    assert.equal(a.symbols.find((s) => s.name === "avisar-vendas")!.detail, "Avisa o time de vendas.");
    assert.deepEqual(a.references.map((r) => [r.role, r.text, r.targetId]), [["tool", "orcamento", id("agent.ts", "tool:orcamento")]], "the idle speaker's tool");
  });

  it("eval file: a lens on each turn and turnStream; the start names a flow of the agent", () => {
    const a = ws.analyze(at("agent.test.ts"));
    assert.deepEqual(a.lenses.map((l) => l.target), [10, 13, 17, 18].map((line) => ({ kind: "run-turns", file: at("agent.test.ts"), line })));
    assert.deepEqual(a.references.map((r) => [r.role, r.text, r.targetId]), [
      ["flow-ref", "enterprise", id("flows.ts", "flow:enterprise")],
      ["event", "entrou_na_etapa", id("agent.ts", "event:entrou_na_etapa")],
    ]);
  });
});
