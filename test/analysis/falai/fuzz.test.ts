// Truncated and mutated versions of every falai file we have (seed programs, examples, fixtures) through
// the falai analyzer: nothing may throw, and no guarded step may fail either (the analysis error listener
// hears every swallowed exception). A seeded PRNG, so a failure reproduces.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createWorkspace, setAnalysisErrorListener } from "../../../server/src/analysis";

const REPO = path.resolve(__dirname, "../../..");
const CORPUS = [
  "test/conformance/programs/falai-end-to-end.test.ts",
  "test/conformance/programs/falai-replay.test.ts",
  "examples/falai/triage-agent.ts",
  "examples/falai/mistakes.ts",
  "test/fixtures/analysis/falai/flows.ts",
  "test/fixtures/analysis/falai/agent.ts",
].map((f) => fs.readFileSync(path.join(REPO, f), "utf8"));
const FIELDS = fs.readFileSync(path.join(REPO, "test/fixtures/analysis/falai/fields.ts"), "utf8");
const FLOWS = fs.readFileSync(path.join(REPO, "test/fixtures/analysis/falai/flows.ts"), "utf8");

const SNIPPETS = ["{", "}", "[", "]", "(", ")", '"', "'", "`", ":", ",", "...", "=>", "else: ", "goto: ", "collect: [", "steps: [", "on: [", "wait: ", "f.flow(", "f.agent({", "flows: [", "tools: {", "actions: [", "branches: [{", "message: []", "\n"];

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, rand: () => number): string {
  const at = () => Math.floor(rand() * (text.length + 1));
  switch (Math.floor(rand() * 4)) {
    case 0:
      return text.slice(0, at());
    case 1: {
      const s = at();
      return text.slice(0, s) + text.slice(s + 1 + Math.floor(rand() * 30));
    }
    case 2: {
      const s = at();
      return text.slice(0, s) + SNIPPETS[Math.floor(rand() * SNIPPETS.length)] + text.slice(s);
    }
    default: {
      const a = at();
      const b = Math.min(text.length, a + Math.floor(rand() * 300));
      const c = at();
      return text.slice(0, c) + text.slice(a, b) + text.slice(c);
    }
  }
}

describe("falai fuzz", () => {
  const errors: string[] = [];
  before(() => setAnalysisErrorListener((e, where) => errors.push(`${where}: ${e instanceof Error ? e.stack : String(e)}`)));
  after(() => setAnalysisErrorListener(undefined));

  it("mutated files, importing a (sometimes mutated) flows file, never throw or fail a guarded step", function () {
    this.timeout(300_000);
    const rand = prng(Number(process.env.FUZZ_SEED ?? 3031));
    const cases = Number(process.env.FALAI_FUZZ_CASES ?? 600);
    const ws = createWorkspace({ roots: ["/w"], readFile: () => undefined });
    ws.setFile("/w/fields.ts", FIELDS);
    for (let i = 0; i < cases; i++) {
      const base = CORPUS[i % CORPUS.length];
      let text = mutate(base, rand);
      if (rand() < 0.3) text = mutate(text, rand);
      const flows = i % 3 === 0 ? mutate(FLOWS, rand) : FLOWS;
      ws.setFile("/w/flows.ts", flows);
      ws.setFile("/w/case.ts", text);
      const a = ws.analyze("/w/case.ts");
      ws.analyze("/w/flows.ts");
      assert.ok(Array.isArray(a.findings), `case ${i}`);
      for (const r of [...a.symbols.map((s) => s.nameRange), ...a.references.map((x) => x.range), ...a.findings.map((f) => f.range)]) {
        assert.ok(r.start <= r.end && r.end <= text.length, `case ${i}: range out of the text`);
      }
      assert.deepEqual(errors, [], `case ${i}`);
    }
  });
});
