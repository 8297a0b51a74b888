// The falai analyzer through the real analysis workspace (its ExtractContext, import resolution,
// suppression comments and the file's tests), not this folder's test contexts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeText, createWorkspace } from "../../../server/src/analysis";

const programs = join(__dirname, "../../conformance/programs");
const slice = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);

describe("falai analysis through the workspace", () => {
  for (const name of ["falai-end-to-end.test.ts", "falai-replay.test.ts", "falai-clock.test.ts"]) {
    it(`${name}: zero findings through analyzeText`, () => {
      const a = analyzeText(join("/tmp/seed", name), readFileSync(join(programs, name), "utf8"));
      assert.deepEqual(a.findings, []);
    });
  }

  it("end to end through analyzeText: flows, steps, the turn lens", () => {
    const text = readFileSync(join(programs, "falai-end-to-end.test.ts"), "utf8");
    const a = analyzeText("/tmp/seed/e2e.test.ts", text);
    assert.deepEqual(a.symbols.filter((s) => s.kind === "step").map((s) => s.name), ["quem", "tchau", "p1", "w1", "p2"]);
    assert.deepEqual(a.lenses.map((l) => l.target.flowId ?? `line ${l.target.line}`), ["triagem", "retomar", `line ${text.split("\n").findIndex((l) => l.includes("agent.turn(")) + 1}`]);
    assert.equal(a.graphs.filter((g) => g.kind === "flow").length, 2);
  });

  it("suppression comments silence a flow finding", () => {
    const head = `import { falai } from "@falai/agent";\nconst f = falai().fields({ nome: { type: "string" } });\n`;
    const flow = (prefix: string) => `${head}f.flow({ id: "a", on: [{ message: [] }], steps: [\n${prefix}  { id: "s", collect: ["nomee"] },\n] });\n`;
    assert.deepEqual(analyzeText("/tmp/x/a.ts", flow("")).findings.map((f) => f.code), ["unknown-field"]);
    assert.deepEqual(analyzeText("/tmp/x/a.ts", flow("  // agent-lens-ignore-next-line unknown-field\n")).findings, []);
  });

  it("follows imports between workspace files: builder, flows and an agent factory used by an eval file", () => {
    const files: Record<string, string> = {
      "/ws/src/fields.ts": `import { falai } from "@falai/agent";\nexport const f = falai().fields({ nome: { type: "string", ask: "Nome?" } });\n`,
      "/ws/src/flows.ts": `import { f } from "./fields";\nexport const boas = f.flow({ id: "boas", on: [{ message: [] }], steps: [{ id: "n", collect: ["nome", "idade"] }, { id: "w", wait: "1h", else: "fim" }] });\n`,
      "/ws/src/agent.ts": `import type { AiProvider } from "@falai/agent";\nimport { f } from "./fields";\nimport { boas } from "./flows";\nexport default function make(provider: AiProvider) {\n  return f.agent({ name: "Ana", provider, flows: [boas] });\n}\n`,
      "/ws/src/agent.test.ts": `import make from "./agent";\nconst agent = make(undefined as never);\nawait agent.turn({ sessionId: "s", message: "oi", id: "m1" });\n`,
    };
    const ws = createWorkspace({ roots: ["/ws"], readFile: (f) => files[f] });
    for (const [file, text] of Object.entries(files)) ws.setFile(file, text);
    const flows = ws.analyze("/ws/src/flows.ts");
    assert.deepEqual(flows.findings.map((f) => [f.code, slice(files["/ws/src/flows.ts"], f.range)]), [["unknown-field", '"idade"'], ["unknown-step", '"fim"']]);
    assert.equal(flows.references.find((r) => r.text === "nome")?.targetId, "/ws/src/fields.ts#field:f.nome");
    assert.ok(flows.dependencies.includes("/ws/src/fields.ts"));
    assert.ok(ws.symbol("/ws/src/fields.ts#field:f.nome") ?? ws.analyze("/ws/src/fields.ts").symbols.some((s) => s.id === "/ws/src/fields.ts#field:f.nome"));
    const evalFile = ws.analyze("/ws/src/agent.test.ts");
    assert.deepEqual(evalFile.lenses.map((l) => l.target), [{ kind: "run-turns", file: "/ws/src/agent.test.ts", line: 3 }]);
    const agent = ws.analyze("/ws/src/agent.ts");
    assert.deepEqual(agent.symbols.filter((s) => s.kind === "agent").map((s) => [s.name, s.detail]), [["Ana", "flows: boas"]]);
  });
});
