// The bundled examples/falai workspace: the agent and its evals are clean, the eval files run against
// our runtime and print ok, and mistakes.ts reports exactly the lines it marks with `// expect: <code>`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createWorkspace } from "../../../server/src/analysis";
import { runProgram } from "../../support/run-program";

const dir = resolve(__dirname, "../../../examples/falai");
const at = (name: string) => join(dir, name);

describe("examples/falai", () => {
  const ws = createWorkspace({ roots: [resolve(dir, "..")] });

  for (const name of ["triage-agent.ts", "triage-agent.test.ts", "replay.test.ts"]) {
    it(`${name} analyzes with zero findings`, () => {
      assert.deepEqual(ws.analyze(at(name)).findings, []);
    });
  }

  it("the eval file's agent.turn is a Run turns site of the agent in triage-agent.ts", () => {
    const a = ws.analyze(at("triage-agent.test.ts"));
    const line = readFileSync(at("triage-agent.test.ts"), "utf8").split("\n").findIndex((l) => l.includes("await agent.turn(")) + 1;
    assert.deepEqual(a.lenses.map((l) => l.target), [{ kind: "run-turns", file: at("triage-agent.test.ts"), line }]);
    assert.ok(a.dependencies.includes(at("triage-agent.ts")));
  });

  it("mistakes.ts reports exactly its marked lines", () => {
    const text = readFileSync(at("mistakes.ts"), "utf8");
    const expected = text.split("\n").flatMap((l, i) => [...l.matchAll(/\/\/ expect: ([a-z-]+)/g)].map((m) => `${i + 1} ${m[1]}`));
    const got = ws.analyze(at("mistakes.ts")).findings.map((f) => `${f.range.startLine + 1} ${f.code}`);
    assert.deepEqual(got.sort(), expected.sort());
    assert.equal(new Set(expected.map((e) => e.split(" ")[1])).size, 14, "every flow code is planted");
  });

  for (const name of ["triage-agent.test.ts", "replay.test.ts"]) {
    it(`${name} runs against our @falai/agent runtime and prints ok`, async function () {
      this.timeout(60_000);
      const r = await runProgram(at(name));
      assert.equal(r.stderr, "");
      assert.equal(r.stdout.trim(), "ok");
      assert.equal(r.status, 0);
    });
  }
});
