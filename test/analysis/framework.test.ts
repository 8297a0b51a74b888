import assert from "node:assert/strict";
import { ts } from "ts-morph";
import { analyzeText, createWorkspace } from "../../server/src/analysis";
import { findSuppressions } from "../../server/src/analysis/suppression";
import { applySeverity } from "../../server/src/analysis/severity";
import { mentionsAgentLibrary } from "../../server/src/analysis/prefilter";
import { contentRangeOfTs, rangeAt } from "../../server/src/analysis/ranges";
import { editDistance, nearestName } from "../../server/src/analysis/util/edit-distance";
import type { Finding } from "../../server/src/analysis/types";

const finding = (code: Finding["code"], line: number): Finding => ({
  code, severity: "error", message: "m", file: "/w/a.ts",
  range: { start: 0, end: 1, startLine: line, startColumn: 0, endLine: line, endColumn: 1 },
});

describe("analysis framework", () => {
  it("pre-filter accepts library mentions and rejects unrelated files", () => {
    assert.ok(mentionsAgentLibrary(`import { setupAgent } from "@statelyai/agent";`));
    assert.ok(mentionsAgentLibrary(`const f = falai().fields({})`));
    assert.ok(!mentionsAgentLibrary(`export const add = (a: number, b: number) => a + b;`));
  });

  it("pre-filter accepts a falai agent file that imports its builder and flows (no library import)", () => {
    assert.ok(mentionsAgentLibrary(`import { f } from "./fields";\nexport const agent = f.agent({ name: "Ana", provider, flows: [triagem] });`));
    assert.ok(mentionsAgentLibrary(`for await (const chunk of agent.turnStream(input)) {}`));
    assert.ok(mentionsAgentLibrary(`export const g = builder.fields({ nome: { type: "string" } });`));
  });

  it("ranges are 0-based lines/columns with UTF-16 offsets", () => {
    const sf = ts.createSourceFile("/a.ts", `const a = "é😀";\nconst b = "xy";`, ts.ScriptTarget.Latest, true);
    const literal = (sf.statements[1] as ts.VariableStatement).declarationList.declarations[0]!.initializer!;
    const r = contentRangeOfTs(sf, literal);
    assert.deepEqual([r.startLine, r.startColumn, r.endLine, r.endColumn], [1, 11, 1, 13]);
    assert.equal(sf.text.slice(r.start, r.end), "xy");
    const first = rangeAt(sf, 11, 14);
    assert.equal(sf.text.slice(first.start, first.end), "é😀");
    assert.equal(first.endColumn - first.startColumn, 3);
  });

  it("suppression comments: one code, several codes, or all", () => {
    const text = [
      "// agent-lens-ignore-next-line unknown-target",
      "a",
      "/* agent-lens-ignore-next-line unreachable-state, unknown-initial -- reason */",
      "b",
      "// agent-lens-ignore-next-line",
      "c",
    ].join("\n");
    const s = findSuppressions(text);
    assert.deepEqual([...(s.get(1) as Set<string>)], ["unknown-target"]);
    assert.deepEqual([...(s.get(3) as Set<string>)].sort(), ["unknown-initial", "unreachable-state"]);
    assert.equal(s.get(5), "all");
    assert.equal(s.get(0), undefined);
  });

  it("severity overrides: off, replace, and codes off by default", () => {
    const out = applySeverity([finding("unknown-target", 0), finding("invoke-without-on-error", 1), finding("unreachable-state", 2)], { "unreachable-state": "off", "unknown-target": "warning" });
    assert.deepEqual(out.map((f) => [f.code, f.severity]), [["unknown-target", "warning"]]);
    const enabled = applySeverity([finding("invoke-without-on-error", 1)], { "invoke-without-on-error": "info" });
    assert.equal(enabled.length, 1);
  });

  it("nearest name for typos", () => {
    assert.equal(nearestName("scorng", ["drafting", "scoring", "done"]), "scoring");
    assert.equal(nearestName("zzzzzz", ["drafting", "scoring", "done"]), undefined);
    // a case-only difference beats any edit; of equally near candidates the first is kept
    assert.equal(nearestName("Review", ["reviews", "review"]), "review");
    assert.equal(nearestName("stat", ["stay", "star", "state"]), "stay");
    // names longer than the distance table's first rows
    const long = "a".repeat(100);
    assert.equal(nearestName(long + "x", [long + "yz", "b".repeat(101), long + "y"]), long + "y");
  });

  it("edit distance: insertions, deletions, substitutions and adjacent swaps", () => {
    assert.deepEqual(
      [editDistance("", "abc"), editDistance("abc", ""), editDistance("kitten", "sitting"), editDistance("ab", "ba"), editDistance("ca", "abc"), editDistance("same", "same")],
      [3, 3, 3, 1, 3, 0],
    );
    assert.equal(editDistance("x".repeat(80), "y".repeat(80)), 80);
  });

  it("analyzeText skips unrelated files and lists a plain eval script as one file test", () => {
    const plain = analyzeText("/w/util.ts", "export const x = 1;");
    assert.equal(plain.isAgentFile, false);
    assert.deepEqual(plain.tests, []);
    const evalFile = analyzeText("/w/a.test.ts", `import assert from "node:assert/strict";\nassert.equal(1, 1);\n`);
    assert.deepEqual(evalFile.tests.map((t) => [t.kind, t.name]), [["file", "a.test.ts"]]);
  });

  it("lists node:test blocks with nesting and ranges", () => {
    const text = `import { describe, test } from "node:test";\ndescribe("suite", () => {\n  test("one", () => {});\n  it.skip(\`two \${1}\`, async () => {});\n});\ntest("three", () => {});\n`;
    const a = analyzeText("/w/b.eval.ts", text);
    assert.deepEqual(a.tests.map((t) => [t.kind, t.name, t.range.startLine]), [["suite", "suite", 1], ["test", "three", 5]]);
    assert.deepEqual(a.tests[0]!.children!.map((t) => [t.kind, t.name, t.range.startLine]), [["test", "one", 2], ["test", "two ${1}", 3]]);
  });

  it("a workspace caches an analysis until the file or a dependency changes", () => {
    const files: Record<string, string> = {};
    const ws = createWorkspace({ roots: ["/w"], readFile: (f) => files[f] });
    ws.setFile("/w/agent.ts", `import { createMachine } from "xstate";\nexport const machine = createMachine({});\n`);
    ws.setFile("/w/agent.test.ts", `import { runSeam } from "@statelyai/agent/testing";\nimport { machine } from "./agent";\nawait runSeam(machine, {});\n`);
    const first = ws.analyze("/w/agent.test.ts");
    assert.equal(first.isAgentFile, true);
    assert.deepEqual(first.dependencies, ["/w/agent.ts"]);
    assert.equal(ws.analyze("/w/agent.test.ts"), first, "unchanged: served from the cache");
    ws.setFile("/w/agent.ts", `import { createMachine } from "xstate";\nexport const machine = createMachine({ initial: "a", states: { a: {} } });\n`);
    assert.notEqual(ws.analyze("/w/agent.test.ts"), first, "a dependency changed: analyzed again");
    assert.deepEqual(ws.dependentsOf("/w/agent.ts"), ["/w/agent.test.ts"]);
  });
});
