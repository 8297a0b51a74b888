// A workspace with `outputsOnDemand` (what `check` uses) keeps only the findings of files not being edited
// and rebuilds their other parts from a fresh analysis when first read: every part of every analysis of the
// fixtures and examples must equal what a workspace building them at once gives, and an analysis whose
// file changed since reads as empty parts (nothing to rebuild it from), its findings kept.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createWorkspace } from "../../server/src/analysis";
import type { AnalysisWorkspace } from "../../server/src/analysis/api";

const REPO = path.resolve(__dirname, "../..");

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") out.push(...sourcesUnder(abs));
    else if (/\.(?:ts|mts)$/.test(e.name)) out.push(abs);
  }
  return out.sort();
}

/** Every part of the file's analysis, and what the workspace says of its first symbols. */
function everything(ws: AnalysisWorkspace, file: string): string {
  const a = ws.analyze(file);
  const about = a.symbols.slice(0, 5).map((s) => [ws.symbol(s.id)?.summary, ws.referencesTo(s.id).length, ws.uncertainReferencesTo(s).length]);
  return JSON.stringify({ ...a, about });
}

describe("outputs on demand", () => {
  for (const folder of ["test/fixtures/analysis", "examples"]) {
    it(`gives every part of every analysis under ${folder} as a workspace that builds them at once`, () => {
      const root = path.join(REPO, folder);
      const files = sourcesUnder(root);
      const eager = createWorkspace({ roots: [root] });
      const onDemand = createWorkspace({ roots: [root], outputsOnDemand: true });
      for (const file of files) assert.deepEqual(onDemand.analyze(file).findings, eager.analyze(file).findings); // findings first, as check reads them
      let symbols = 0;
      for (const file of files) {
        assert.equal(everything(onDemand, file), everything(eager, file), file);
        symbols += eager.analyze(file).symbols.length;
      }
      assert.ok(files.length > 3 && symbols > 20, `${files.length} files, ${symbols} symbols`);
    });
  }

  it("reads an analysis whose file changed since as empty parts, its findings kept", () => {
    const files: Record<string, string> = {
      "/w/agent.ts": `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: {} });\nexport const machine = agent.createMachine({ initial: "a", states: { a: { on: { GO: "nowhere" } }, b: {} } });\n`,
    };
    const ws = createWorkspace({ roots: ["/w"], readFile: (f) => files[f], outputsOnDemand: true });
    const before = ws.analyze("/w/agent.ts");
    assert.deepEqual(before.findings.map((f) => f.code), ["unknown-target", "unreachable-state"]);
    ws.setFile("/w/agent.ts", files["/w/agent.ts"]!.replace('"nowhere"', '"b"'));
    assert.deepEqual([before.symbols, before.references, before.lenses, before.graphs], [[], [], [], []]);
    assert.equal(before.findings.length, 2);
    const after = ws.analyze("/w/agent.ts");
    assert.deepEqual(after.findings, []);
    assert.ok(after.symbols.some((s) => s.kind === "state" && s.name === "b"), "the current analysis is rebuilt");
  });
});
