// The stately docs-forms fixture (test/fixtures/analysis/stately): every form the library's docs write a
// machine and its evals in, through the real workspace — clean, and the machine's requests, events and
// states are all seen.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createWorkspace } from "../../../server/src/analysis";

const dir = path.resolve(__dirname, "../../fixtures/analysis/stately");
const at = (f: string) => path.join(dir, f);

describe("stately docs-forms fixture", () => {
  const ws = createWorkspace({ roots: [dir] });

  for (const f of ["docs-forms.ts", "docs-forms.test.ts"]) {
    it(`${f}: zero findings`, () => assert.deepEqual(ws.analyze(at(f)).findings, []));
  }

  it("requests: the setupAgent key and the named inline decision (its name read from a shared input builder)", () => {
    const names = ws.analyze(at("docs-forms.ts")).symbols.filter((s) => s.kind === "request").map((s) => s.name);
    assert.deepEqual(names, ["answerQuestion", "choose"]);
  });

  it("planted: a misspelt actor key in scripts, event in an event log and state in a state path — each once, at its line", () => {
    const planted = createWorkspace({ roots: [dir] });
    const clean = fs.readFileSync(at("docs-forms.test.ts"), "utf8");
    const text = clean
      .replace(`summarize: ["short"]`, `sumarize: ["short"]`)
      .replace(`"APPROVE", { type: "QUIT" }`, `"APROVE", { type: "QUIT" }`)
      .replace(`"gate", "summarizing"`, `"gate", "sumarizing"`);
    assert.notEqual(text, clean);
    planted.setFile(at("docs-forms.test.ts"), text);
    const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle));
    const got = planted.analyze(at("docs-forms.test.ts")).findings.map((f) => [f.code, text.slice(0, f.range.start).split("\n").length - 1]);
    assert.deepEqual(got, [
      ["unknown-script-key", lineOf("sumarize:")],
      ["unknown-state-ref", lineOf(`"sumarizing"`)],
      ["unknown-event", lineOf(`"APROVE"`)],
    ]);
  });
});
