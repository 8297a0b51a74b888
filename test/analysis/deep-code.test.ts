// Code nested thousands of levels deep (issue 26): a long prompt built with `+` is one binary expression
// per term, each inside the next. Every walk over it must finish, and what the parser itself cannot read
// is an `analysis-failed` error on the file, never a quiet gap; a file importing it keeps its own findings.
import assert from "node:assert/strict";
import { setAnalysisErrorListener } from "../../server/src/analysis";
import { analyzeIn } from "./helpers";

const HEAD = `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: { draft: { model: "writer", prompt: PROMPT } } });\n`;
const MACHINE = `export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "bb" } }, b: {} } });\n`;
const EVAL = `import { runSeam, matchesTrajectory } from "@statelyai/agent/testing";\nimport { machine } from "./agent";\nconst run = await runSeam(machine, { scripts: { drat: ["x"] }, seam: { request: "draft" } });\nmatchesTrajectory(run.path, []);\n`;

const longPrompt = (terms: number) => `const PROMPT = ${Array.from({ length: terms }, (_, i) => JSON.stringify(`Line ${i} of the prompt. `)).join(" +\n  ")};\n`;
const deep = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n);

describe("deep code: every walk finishes, or the file says it was not analyzed", () => {
  const failures: string[] = [];
  beforeEach(() => setAnalysisErrorListener((error, where) => failures.push(`${where}: ${String(error)}`)));
  afterEach(() => {
    setAnalysisErrorListener(undefined);
    failures.length = 0;
  });
  const codesOf = (a: { findings: Array<{ code: string }> }) => a.findings.map((f) => f.code);

  it("a 2,500-term prompt built with +: the machine is analyzed, and an eval importing it keeps its findings", () => {
    const files = { "agent.ts": HEAD + longPrompt(2500) + MACHINE, "agent.test.ts": EVAL };
    assert.deepEqual(codesOf(analyzeIn(files, "agent.ts")), ["unknown-target"]);
    assert.deepEqual(codesOf(analyzeIn(files, "agent.test.ts")), ["unknown-script-key", "empty-trajectory"]);
    assert.deepEqual(failures, []);
  });

  it("property chains, call chains and && / , chains thousands deep are walked without a failure", () => {
    for (const expr of [`x${".a".repeat(3000)}`, `f${"()".repeat(3000)}`, Array.from({ length: 3000 }, (_, i) => `c${i}`).join(" && "), `(${Array.from({ length: 3000 }, (_, i) => `c${i}`).join(", ")})`]) {
      const a = analyzeIn({ "agent.ts": `const PROMPT = "p";\nexport const deepValue = ${expr};\n${HEAD}${MACHINE}` }, "agent.ts");
      assert.deepEqual(codesOf(a), ["unknown-target"], expr.slice(0, 20));
    }
    assert.deepEqual(failures, []);
  });

  it("nesting the parser itself cannot read: an analysis-failed error with the reason; an importer keeps its own findings and says why the import is unknown", () => {
    const files = { "agent.ts": `const PROMPT = "p";\nexport const n = ${deep("(", "1", ")", 5000)};\n${HEAD}${MACHINE}`, "agent.test.ts": EVAL };
    const module = analyzeIn(files, "agent.ts");
    assert.deepEqual(module.findings.map((f) => [f.code, f.severity, f.range.startLine, f.range.startColumn]), [["analysis-failed", "error", 0, 0]]);
    assert.match(module.findings[0]!.message, /^Analysis failed while parsing the file: the code nests too deeply to be read \(RangeError: Maximum call stack size exceeded\)\. Findings of this file may be missing/);
    const importer = analyzeIn(files, "agent.test.ts");
    assert.deepEqual(codesOf(importer).sort(), ["analysis-failed", "empty-trajectory"]);
    assert.match(importer.findings.find((f) => f.code === "analysis-failed")!.message, /while reading the imported file \.\/agent\.ts: the code nests too deeply/);
  });
});
