// The seed document's own examples (the stately conformance programs) and the clean example files
// analyze with zero findings — and are understood (machines, requests, eval call sites resolved).
import assert from "node:assert/strict";
import * as path from "node:path";
import { createWorkspace } from "../../server/src/analysis";

const REPO = path.resolve(__dirname, "../..");
const PROGRAMS = path.join(REPO, "test/conformance/programs");

describe("seed examples analyze cleanly", () => {
  const ws = createWorkspace({ roots: [REPO] });

  for (const name of ["stately-machine.ts", "stately-run-seam.test.ts", "stately-mock-model.test.ts", "stately-plain-executors.test.ts"]) {
    it(`${name}: zero findings`, () => {
      const a = ws.analyze(path.join(PROGRAMS, name));
      assert.equal(a.isAgentFile, true);
      assert.deepEqual(a.findings, []);
    });
  }

  it("stays clean with unreachable-state raised to an error", () => {
    const strict = createWorkspace({ roots: [REPO], severity: { "unreachable-state": "error" } });
    assert.deepEqual(strict.analyze(path.join(PROGRAMS, "stately-machine.ts")).findings, []);
  });

  it("the seam eval resolves the imported machine: script keys and seam name its requests", () => {
    const a = ws.analyze(path.join(PROGRAMS, "stately-run-seam.test.ts"));
    const machineFile = path.join(PROGRAMS, "stately-machine.ts");
    assert.deepEqual(a.references.map((r) => [r.role, r.text, r.targetId]), [
      ["script-key", "draftEmail", `${machineFile}#request:agent.draftEmail`],
      ["script-key", "scoreDraft", `${machineFile}#request:agent.scoreDraft`],
      ["seam-request", "scoreDraft", `${machineFile}#request:agent.scoreDraft`],
    ]);
    assert.deepEqual(a.dependencies, [machineFile]);
    assert.deepEqual(a.tests.map((t) => [t.kind, t.name]), [["file", "stately-run-seam.test.ts"]]);
  });

  for (const name of ["email-agent.ts", "email-agent.test.ts", "support-triage.ts", "support-triage.eval.ts"]) {
    it(`examples/stately/${name}: zero findings`, () => {
      assert.deepEqual(ws.analyze(path.join(REPO, "examples/stately", name)).findings, []);
    });
  }
});
