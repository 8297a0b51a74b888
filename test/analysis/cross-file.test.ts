// A machine defined in one file and used by an eval in another resolves to the same model through every
// import form: named, default, aliased, namespace, re-exports (named and star), relative paths with
// `.js` written for `.ts`, and tsconfig paths.
import assert from "node:assert/strict";
import { createWorkspace } from "../../server/src/analysis";
import { codes, ROOT, workspaceOf } from "./helpers";

const AGENT = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" }, score: { model: "judge", prompt: "q" } } });
export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "b" } }, b: { invoke: { src: "score", onDone: "c" } }, c: { type: "final" } } });
export default machine;
`;
const seam = (imp: string, ref = "machine") => `import { runSeam } from "@statelyai/agent/testing";\n${imp}\nawait runSeam(${ref}, { scripts: { draft: ["x"], scor: [1] }, seam: { request: "score" } });\n`;

function scriptKeyFindings(files: Record<string, string>, file = "src/agent.test.ts"): string[] {
  return codes(workspaceOf(files).analyze(`${ROOT}/${file}`));
}

describe("cross-file resolution", () => {
  const cases: Array<[string, Record<string, string>]> = [
    ["named import", { "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import { machine } from "./agent";`) }],
    ["aliased import with .js extension", { "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import { machine as m } from "./agent.js";`, "m") }],
    ["default import", { "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import m from "./agent";`, "m") }],
    ["namespace import", { "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import * as agents from "./agent";`, "agents.machine") }],
    ["named re-export through an index", { "src/agents/agent.ts": AGENT, "src/agents/index.ts": `export { machine as emailMachine } from "./agent";`, "src/agent.test.ts": seam(`import { emailMachine } from "./agents";`, "emailMachine") }],
    ["star re-export", { "src/agents/agent.ts": AGENT, "src/agents/index.ts": `export * from "./agent";`, "src/agent.test.ts": seam(`import { machine } from "./agents/index";`) }],
    ["local re-export of an import", { "src/agent.ts": AGENT, "src/reexport.ts": `import { machine } from "./agent";\nexport { machine };`, "src/agent.test.ts": seam(`import { machine } from "./reexport";`) }],
    ["tsconfig paths", { "tsconfig.json": `{ "compilerOptions": { "baseUrl": ".", "paths": { "@agents/*": ["src/*"] } } }`, "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import { machine } from "@agents/agent";`) }],
    ["tsconfig baseUrl", { "tsconfig.json": `{ // comments are allowed\n "compilerOptions": { "baseUrl": "src" } }`, "src/agent.ts": AGENT, "src/agent.test.ts": seam(`import { machine } from "agent";`) }],
  ];
  for (const [name, files] of cases) {
    it(`${name}: the scripts key typo is found against the imported machine`, () => {
      assert.deepEqual(scriptKeyFindings(files), ["unknown-script-key"]);
    });
  }

  it("an import that cannot be resolved gives no finding", () => {
    assert.deepEqual(scriptKeyFindings({ "src/agent.test.ts": seam(`import { machine } from "./missing";`) }), []);
  });

  it("the agent may live in another file than the machine", () => {
    const files = {
      "src/agent-config.ts": `import { setupAgent } from "@statelyai/agent";\nexport const agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });`,
      "src/machine.ts": `import { agent } from "./agent-config";\nexport const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "drat" } } } });`,
    };
    const a = workspaceOf(files).analyze(`${ROOT}/src/machine.ts`);
    assert.deepEqual(codes(a), ["unknown-request"]);
    assert.ok(a.dependencies.includes(`${ROOT}/src/agent-config.ts`));
  });

  it("states spread from an imported const are part of the machine", () => {
    const files = {
      "src/states.ts": `export const tail = { c: { type: "final" } } as const;`,
      "src/machine.ts": `import { createMachine } from "xstate";\nimport { tail } from "./states";\nexport const m = createMachine({ initial: "a", states: { a: { on: { GO: "c", BAD: "d" } }, ...tail } });`,
    };
    const a = workspaceOf(files).analyze(`${ROOT}/src/machine.ts`);
    assert.deepEqual(a.findings.map((f) => [f.code, f.message.includes(`"d"`)]), [["unknown-target", true]]);
  });

  it("re-analyzes dependents when the imported file changes, and reports them", () => {
    const files: Record<string, string> = { [`${ROOT}/src/agent.ts`]: AGENT };
    const ws = createWorkspace({ roots: [ROOT], readFile: (f) => files[f] });
    ws.setFile(`${ROOT}/src/agent.test.ts`, seam(`import { machine } from "./agent";`));
    assert.deepEqual(codes(ws.analyze(`${ROOT}/src/agent.test.ts`)), ["unknown-script-key"]);
    assert.deepEqual(ws.dependentsOf(`${ROOT}/src/agent.ts`), [`${ROOT}/src/agent.test.ts`]);
    ws.setFile(`${ROOT}/src/agent.ts`, AGENT.replaceAll("score", "scor"));
    assert.deepEqual(codes(ws.analyze(`${ROOT}/src/agent.test.ts`)), ["unknown-seam"]);
    const refs = ws.referencesTo(`${ROOT}/src/agent.ts#request:agent.scor`);
    assert.deepEqual(refs.map((r) => [r.role, r.file]).sort(), [["script-key", `${ROOT}/src/agent.test.ts`]]);
  });
});
