// The prefilter (shared/files/agent-markers.ts) lets through every file an analyzer has something for:
// one word list per library, the global test their union. A flow file built with an imported builder's
// `f.fromSpec(...)` names no library word but falai's own filter's.
import assert from "node:assert/strict";
import { LIBRARY_MARKERS, mentionsAgentLibrary, mentionsLibrary } from "@agent-lens/files/agent-markers";
import { memoryWorkspace } from "./falai/support/project";

const BUILDER = `import { falai } from "@falai/agent";
export const f = falai().fields({ nome: { type: "string", ask: "Pergunte o nome." } });
`;
const STORED = `import { f } from "./builder";
export const saudacao = f.fromSpec({ id: "saudacao", name: "Saudação", on: [{ message: [] }], steps: [{ id: "oi", say: "Oi!", then: "tchau" }] });
`;

describe("prefilter: one word list per library", () => {
  it("a flow built with an imported builder's fromSpec gets its findings", () => {
    assert.equal(mentionsAgentLibrary(STORED), true);
    const ws = memoryWorkspace({ "/w/builder.ts": BUILDER, "/w/stored.ts": STORED });
    const analysis = ws.analyze("/w/stored.ts");
    assert.equal(analysis.isAgentFile, true);
    assert.deepEqual(analysis.findings.map((f) => [f.code, STORED.slice(f.range.start, f.range.end)]), [["unknown-step", '"tchau"']]);
  });

  it("each library's own words pass the global test, and a file with none passes neither", () => {
    const samples: Record<keyof typeof LIBRARY_MARKERS, string[]> = {
      "@statelyai/agent": ['import { setupAgent } from "@statelyai/agent";', "createMachine({})", "await runSeam(machine, {})", "import * as xstate from 'x';"],
      "@falai/agent": ["f.fromSpec(stored)", "f.flow ({})", "builder.fields({})", "agent.turnStream({})", "// falai"],
    };
    for (const [library, texts] of Object.entries(samples)) {
      for (const text of texts) {
        assert.equal(mentionsLibrary(library as keyof typeof LIBRARY_MARKERS, text), true, `${library}: ${text}`);
        assert.equal(mentionsAgentLibrary(text), true, text);
      }
    }
    assert.equal(mentionsAgentLibrary('export const add = (a: number, b: number) => a + b;\nconsole.log("flowers");\n'), false);
    assert.equal(mentionsLibrary("@falai/agent", "createMachine({})"), false);
  });
});
