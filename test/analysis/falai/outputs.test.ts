// What the language features build on: symbols (names, ranges, parents, hovers), references with
// candidates, lenses and flow graphs.
import assert from "node:assert/strict";
import { analyzeSource, memoryWorkspace, slice } from "./support/project";

const SRC = `import { falai } from "@falai/agent";
const f = falai().fields({
  nome: { type: "string", ask: "Pergunte o nome." },
  "plano-escolhido": { type: "enum", values: ["basico", "pro"] },
});
const vendas = f.flow({
  id: "vendas",
  name: "Vendas",
  on: [{ message: ["quer comprar"] }, { mention: "um concorrente", extract: ["nome"] }],
  steps: [
    { id: "quem", prompt: "Pergunte quem é.", collect: ["nome", "plano-escolhido"], branches: [{ when: "já é cliente", goto: "fim" }] },
    { id: "espera", wait: "1h30m", else: "quem" },
    { id: "fim", prompt: "Tchau.", do: ["registrar"], tools: ["preco"] },
  ],
});
export const agent = f.agent({
  name: "Ana",
  provider: undefined as never,
  flows: [vendas],
  tools: { preco: { description: "Preço do plano", run: () => 1 } },
  actions: [f.action("registrar", () => {})],
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
      ["field", "plano-escolhido", "plano-escolhido", "fieldSet:f", "enum: basico | pro"],
      ["flow", "vendas", "vendas", "", "message, mention"],
      ["step", "quem", "quem", "flow:vendas", "prompt · collect nome, plano-escolhido · 1 branch"],
      ["step", "espera", "espera", "flow:vendas", "wait 1h30m · else quem"],
      ["step", "fim", "fim", "flow:vendas", "prompt · do registrar · tools preco"],
      ["agent", "Ana", "Ana", "", "flows: vendas"],
      ["action", "registrar", "registrar", "", "action"],
      ["tool", "preco", "preco", "agent:agent", "Preço do plano"],
    ]);
    // the whole declaration range covers the name
    for (const s of r.symbols) assert.ok(s.range.start <= s.nameRange.start && s.nameRange.end <= s.range.end, s.id);
  });

  it("hover summaries: a field's type and ask, a flow's triggers, a step's prompt and wait", () => {
    assert.equal(sym("field:f.nome").summary, "Ask: Pergunte o nome.");
    assert.equal(sym("field:f.nome").detail, "string");
    assert.equal(sym("field:f.plano-escolhido").summary, "Values: `basico`, `pro`");
    const flow = sym("flow:vendas").summary!;
    assert.match(flow, /a message like "quer comprar"/);
    assert.match(flow, /a mention of "um concorrente" \(extracts nome\)/);
    assert.match(flow, /Steps: `quem` → `espera` → `fim`/);
    assert.match(sym("step:vendas.quem").summary!, /Prompt: Pergunte quem é\.[\s\S]*Collects: `nome`, `plano-escolhido`[\s\S]*when "já é cliente" → `fim`/);
    assert.match(sym("step:vendas.espera").summary!, /Waits 1h30m; a customer message meanwhile goes to `quem`/);
    assert.match(sym("agent:agent").summary!, /Tools: `preco`[\s\S]*Actions: `registrar`/);
  });

  it("references name fields, steps, tools and actions, resolved, with candidates", () => {
    const got = r.references.map((x) => [x.role, x.kind, x.text, slice(r.text, x.range), x.targetId?.replace("/w/agent.ts#", "")]);
    assert.deepEqual(got, [
      ["collect", "field", "nome", "nome", "field:f.nome"],
      ["collect", "field", "nome", "nome", "field:f.nome"],
      ["collect", "field", "plano-escolhido", "plano-escolhido", "field:f.plano-escolhido"],
      ["goto", "step", "fim", "fim", "step:vendas.fim"],
      ["else", "step", "quem", "quem", "step:vendas.quem"],
      ["tool", "tool", "preco", "preco", "tool:preco"],
      ["action", "action", "registrar", "registrar", "action:registrar"],
    ]);
    const gotoRef = r.references.find((x) => x.role === "goto")!;
    assert.deepEqual(gotoRef.candidates!.map((c) => c.insertText), ["quem", "espera", "fim", "end"]);
    assert.deepEqual(r.references[0].candidates!.map((c) => c.insertText), ["nome", "plano-escolhido"]);
    assert.deepEqual(r.references.find((x) => x.role === "tool")!.candidates!.map((c) => [c.insertText, c.detail]), [["preco", "Preço do plano"]]);
  });

  it("a Run turns lens on the flow", () => {
    assert.deepEqual(r.lenses.map((l) => [l.title, l.target, l.range.startLine]), [["Run turns", { kind: "run-turns", file: "/w/agent.ts", flowId: "vendas" }, 5]]);
  });

  it("a flow graph: a node per step and end, edges for order, else and goto", () => {
    assert.equal(r.graphs.length, 1);
    const g = r.graphs[0];
    const name = (id: string) => g.nodes.find((n) => n.id === id)!.label;
    assert.deepEqual(g.nodes.map((n) => [n.label, n.type, n.initial ?? false]), [["quem", "step", true], ["espera", "step", false], ["fim", "step", false], ["end", "final", false]]);
    assert.deepEqual(g.edges.map((e) => [name(e.source), name(e.target), e.label]), [
      ["quem", "espera", "next"],
      ["quem", "fim", "when já é cliente"],
      ["espera", "fim", "after 1h30m"],
      ["espera", "quem", "else (customer message)"],
      ["fim", "end", "next"],
    ]);
  });
});

describe("falai ranges", () => {
  it("match ExtractContext.rangeAt exactly, across lines with non-ASCII text and emoji", () => {
    const text = `import { falai } from "@falai/agent";\n// 🚀 ção\nconst f = falai().fields({ "ação🚀": { type: "string" } });\nf.flow({ id: "fluxo🚀", on: [{ message: ["olá 👋"] }], steps: [\n  { id: "é", collect: ["ação🚀", "nãoexiste"] }, { id: "w", wait: "1h", else: "é" },\n] });\n`;
    const ws = memoryWorkspace({ "/w/a.ts": text });
    const ctx = ws.ctx("/w/a.ts");
    const a = ws.analyze("/w/a.ts");
    const ranges = [...a.symbols.flatMap((s) => [s.range, s.nameRange]), ...a.references.map((r) => r.range), ...a.findings.map((f) => f.range)];
    assert.ok(ranges.length > 10);
    for (const r of ranges) assert.deepEqual(r, ctx.rangeAt(r.start, r.end));
    assert.deepEqual(a.symbols.filter((s) => s.kind !== "fieldSet").map((s) => slice(text, s.nameRange)), ["ação🚀", "fluxo🚀", "é", "w"]);
    assert.deepEqual(a.findings.map((f) => slice(text, f.range)), ['"nãoexiste"']);
  });
});

describe("falai agents and eval sites, more shapes", () => {
  it("flows inline in f.agent, a keyed tool const, turnStream, and a turn on a parameter", () => {
    const r = analyzeSource(`import { falai, type AiProvider } from "@falai/agent";
const f = falai().fields({ nome: { type: "string" } });
const tools = { preco: { run: () => 1 } };
export const agent = f.agent({
  name: "Bia",
  provider: undefined as unknown as AiProvider,
  flows: [f.flow({ id: "a", on: [{ message: [] }], steps: [{ id: "s", collect: ["nome"], tools: ["preco", "frete"] }] })],
  tools,
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
});
