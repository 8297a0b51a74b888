// What the language features build on: symbols (names, ranges, parents, hovers), references with
// candidates, lenses and flow graphs — for @falai/agent v4 definitions.
import assert from "node:assert/strict";
import { rangeAt } from "../../../server/src/analysis/ranges";
import { parseWithParents } from "../../../server/src/analysis/parse";
import { analyzeSource, memoryWorkspace, slice } from "./support/project";

const SRC = `import { falai } from "@falai/agent";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  "plano-escolhido": { type: "string", enum: ["basico", "pro"] },
});
const vendas = f.flow({
  id: "vendas",
  name: "Vendas",
  on: [{ message: ["quer comprar"] }, { mention: ["um concorrente"], extract: { trecho: { type: "string" } } }, { event: "pago", after: "5m" }],
  steps: [
    { id: "quem", prompt: "Pergunte quem é.", collect: ["nome", "plano-escolhido"], branches: [{ when: "já é cliente", then: "fim" }] },
    { id: "espera", wait: "2h", else: "quem" },
    { id: "fim", prompt: "Tchau.", tools: ["preco"] },
    { id: "registra", do: "registrar", onFail: { flow: "humano" } },
  ],
});
const humano = f.flow({ id: "humano", name: "Humano", steps: [{ id: "aviso", say: "Já chamo alguém.", then: "end" }] });
export const agent = f.agent({
  name: "Ana",
  provider: undefined as never,
  flows: [vendas, humano],
  tools: [{ id: "preco", description: "Preço do plano", handler: () => ({ value: 1 }) }],
  actions: { registrar: f.action({ parameters: {}, run: () => ({ ok: true }) }) },
  events: { pago: f.event() },
});
`;

describe("falai symbols, references, lenses and graphs", () => {
  const r = analyzeSource(SRC);
  const sym = (id: string) => r.symbols.find((s) => s.id === `/w/agent.ts#${id}`)!;

  it("has no findings", () => assert.deepEqual(r.findings, []));

  it("declares every named thing with its name range, parent and detail", () => {
    const got = r.symbols.map((s) => [s.kind, s.name, slice(r.text, s.nameRange), s.parentId?.replace("/w/agent.ts#", "") ?? "", s.detail]);
    assert.deepEqual(got, [
      ["fieldSet", "f", "f", "", "2 fields"],
      ["field", "nome", "nome", "fieldSet:f", "string"],
      ["field", "plano-escolhido", "plano-escolhido", "fieldSet:f", "string: basico | pro"],
      ["flow", "vendas", "vendas", "", "message, mention, event pago"],
      ["step", "quem", "quem", "flow:vendas", "prompt · collect nome, plano-escolhido · 1 branch"],
      ["step", "espera", "espera", "flow:vendas", "wait 2h · else quem"],
      ["step", "fim", "fim", "flow:vendas", "prompt · tools preco"],
      ["step", "registra", "registra", "flow:vendas", "do registrar"],
      ["flow", "humano", "humano", "", "started by hand"],
      ["step", "aviso", "aviso", "flow:humano", "say · then end"],
      ["agent", "Ana", "Ana", "", "flows: vendas, humano"],
      ["tool", "preco", "preco", "agent:agent", "Preço do plano"],
      ["action", "registrar", "registrar", "agent:agent", "action"],
      ["event", "pago", "pago", "agent:agent", "event"],
    ]);
    // the whole declaration range covers the name
    for (const s of r.symbols) assert.ok(s.range.start <= s.nameRange.start && s.nameRange.end <= s.range.end, s.id);
  });

  it("hover summaries: a field's type and values, a flow's triggers, a step's prompt, wait and failure path", () => {
    assert.equal(sym("field:f.nome").summary, "Ask: Pergunte o nome.");
    assert.equal(sym("field:f.plano-escolhido").summary, "Values: `basico`, `pro`");
    const flow = sym("flow:vendas").summary!;
    assert.match(flow, /a message like "quer comprar"/);
    assert.match(flow, /a mention of "um concorrente" \(extracts trecho\)/);
    assert.match(flow, /the event `pago`, 5m later/);
    assert.match(flow, /Steps: `quem` → `espera` → `fim` → `registra`/);
    assert.match(sym("step:vendas.quem").summary!, /Prompt: Pergunte quem é\.[\s\S]*Collects: `nome`, `plano-escolhido`[\s\S]*when "já é cliente" → `fim`/);
    assert.match(sym("step:vendas.espera").summary!, /Waits 2h, then goes to the next step; a customer message meanwhile goes to `quem`/);
    assert.match(sym("step:vendas.registra").summary!, /Runs action `registrar`; on failure goes to flow `humano`/);
    assert.match(sym("flow:humano").summary!, /Starts on: `turn\(\{ start \}\)` or another flow's `then: \{ flow \}`/);
    assert.match(sym("agent:agent").summary!, /Tools: `preco`[\s\S]*Actions: `registrar`[\s\S]*Events: `pago`/);
  });

  it("references name fields, steps, flows, tools, actions and events, resolved, with candidates", () => {
    const got = r.references.map((x) => [x.role, x.kind, x.text, slice(r.text, x.range), x.targetId?.replace("/w/agent.ts#", "")]);
    assert.deepEqual(got, [
      ["collect", "field", "nome", "nome", "field:f.nome"],
      ["collect", "field", "plano-escolhido", "plano-escolhido", "field:f.plano-escolhido"],
      ["event", "event", "pago", "pago", "event:pago"],
      ["next", "step", "fim", "fim", "step:vendas.fim"],
      ["next", "step", "quem", "quem", "step:vendas.quem"],
      ["tool", "tool", "preco", "preco", "tool:preco"],
      ["flow-ref", "flow", "humano", "humano", "flow:humano"],
      ["action", "action", "registrar", "registrar", "action:registrar"],
      ["next", "step", "end", "end", undefined],
    ]);
    const nextRef = r.references.find((x) => x.role === "next")!;
    assert.deepEqual(nextRef.candidates!.map((c) => c.insertText), ["quem", "espera", "fim", "registra", "end"]);
    assert.deepEqual(r.references[0]!.candidates!.map((c) => c.insertText), ["nome", "plano-escolhido"]);
    assert.deepEqual(r.references.find((x) => x.role === "flow-ref")!.candidates!.map((c) => c.insertText), ["vendas", "humano"]);
    assert.deepEqual(r.references.find((x) => x.role === "tool")!.candidates!.map((c) => [c.insertText, c.detail]), [["preco", "Preço do plano"]]);
  });

  it("a Run turns lens on each flow", () => {
    assert.deepEqual(r.lenses.map((l) => [l.title, l.target, l.range.startLine]), [
      ["Run turns", { kind: "run-turns", file: "/w/agent.ts", flowId: "vendas" }, 5],
      ["Run turns", { kind: "run-turns", file: "/w/agent.ts", flowId: "humano" }, 16],
    ]);
  });

  it("a flow graph: a node per step and end, edges for order, else, branches and failures", () => {
    const g = r.graphs[0]!;
    const name = (id: string) => g.nodes.find((n) => n.id === id)!.label;
    assert.deepEqual(g.nodes.map((n) => [n.label, n.type, n.initial ?? false]), [["quem", "step", true], ["espera", "step", false], ["fim", "step", false], ["registra", "step", false], ["end", "final", false]]);
    assert.deepEqual(g.edges.map((e) => [name(e.source), name(e.target), e.label]), [
      ["quem", "espera", "next"],
      ["quem", "fim", "when já é cliente"],
      ["espera", "fim", "after 2h"],
      ["espera", "quem", "else (customer message)"],
      ["fim", "registra", "next"],
      ["registra", "end", "next"],
      ["registra", "end", "on failure → flow humano"],
    ]);
  });
});

describe("falai ranges", () => {
  it("match rangeAt exactly, across lines with non-ASCII text and emoji", () => {
    const text = `import { falai } from "@falai/agent";\n// 🚀 ção\nconst f = falai().fields({ "ação🚀": { type: "string" } });\nf.flow({ id: "fluxo🚀", on: [{ message: ["olá 👋"] }], steps: [\n  { id: "é", collect: ["ação🚀", "nãoexiste"] }, { id: "w", wait: "1h", else: "é" },\n] });\n`;
    const ws = memoryWorkspace({ "/w/a.ts": text });
    const a = ws.analyze("/w/a.ts");
    const sf = parseWithParents("/w/a.ts", text);
    const ranges = [...a.symbols.flatMap((s) => [s.range, s.nameRange]), ...a.references.map((r) => r.range), ...a.findings.map((f) => f.range)];
    assert.ok(ranges.length > 10);
    for (const r of ranges) assert.deepEqual(r, rangeAt(sf, r.start, r.end));
    assert.deepEqual(a.symbols.filter((s) => s.kind !== "fieldSet").map((s) => slice(text, s.nameRange)), ["ação🚀", "fluxo🚀", "é", "w"]);
    assert.deepEqual(a.findings.map((f) => slice(text, f.range)), ['"nãoexiste"']);
  });
});

describe("falai agents and eval sites, more shapes", () => {
  it("flows inline in f.agent, a tool const, turnStream, and a turn on a parameter", () => {
    const r = analyzeSource(`import { falai, type AiProvider } from "@falai/agent";
const f = falai().fields({ nome: { type: "string" } });
const preco = { id: "preco", handler: () => ({ value: 1 }) };
export const agent = f.agent({
  name: "Bia",
  provider: undefined as unknown as AiProvider,
  flows: [f.flow({ id: "a", name: "A", on: [{ message: [] }], steps: [{ id: "s", collect: ["nome"], tools: ["preco", "frete"] }] })],
  tools: [preco],
});
for await (const e of agent.turnStream({ sessionId: "s", message: "oi", id: "m" })) void e;
export async function run(a: typeof agent) {
  return a.turn({ sessionId: "s", message: "oi", id: "m2" });
}
const notAnAgent = { turn: () => 1 };
notAnAgent.turn();
`);
    assert.deepEqual(r.findings.map((f) => [f.code, slice(r.text, f.range)]), [["unknown-tool", '"frete"']]);
    assert.deepEqual(r.symbols.filter((s) => s.kind === "agent").map((s) => s.detail), ["flows: a"]);
    assert.deepEqual(r.lenses.map((l) => l.target.flowId ?? l.target.line), ["a", 10, 12]);
  });

  it("a rename of a shorthand registration keeps the value: { notify } → { notificar: notify }", async () => {
    const { renameEdits } = await import("../../../server/src/analysis/features");
    const text = `import { falai } from "@falai/agent";\nconst f = falai().fields({});\nconst notify = f.action({ parameters: {}, run: () => ({ ok: true }) });\nconst t = f.flow({ id: "t", name: "T", on: [{ message: [] }], steps: [{ id: "a", do: "notify" }] });\nexport const agent = f.agent({ name: "A", provider: undefined as never, flows: [t], actions: { notify } });\n`;
    const ws = memoryWorkspace({ "/w/a.ts": text });
    const a = ws.analyze("/w/a.ts");
    const result = renameEdits(ws.workspace, a, text.indexOf('"notify"') + 2, "notificar", () => text)!;
    assert.deepEqual(result.edits.map((e) => [slice(text, e.range.start === e.range.end ? { start: e.range.start, end: e.range.end } : e.range), e.newText]).sort(), [["notify", "notificar"], ["notify", "notificar: notify"]]);
  });
});
