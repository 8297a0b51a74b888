// Thousands of truncated and mutated versions of the fixtures through the analysis (a seeded PRNG, so a
// failure reproduces): no exception may escape, no guarded analyzer step may fail either, and no file is
// silently left unanalysed (issue 26): some mutations nest code thousands of levels deep (a long prompt
// built with `+` must be analysed; parentheses too deep for the parser itself must give the file an
// `analysis-failed` error). Times are printed (the target is < 200 ms per case), never asserted.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createWorkspace, setAnalysisErrorListener } from "../../server/src/analysis";

const REPO = path.resolve(__dirname, "../..");
const CORPUS = [
  "test/fixtures/analysis/kitchen-sink.ts",
  "test/fixtures/analysis/kitchen-sink.test.ts",
  "examples/stately/email-agent.ts",
  "examples/stately/email-agent.test.ts",
  "examples/stately/support-triage.ts",
  "examples/stately/support-triage.eval.ts",
  "examples/stately/mistakes.ts",
  "test/conformance/programs/stately-machine.ts",
  "test/conformance/programs/stately-run-seam.test.ts",
  "test/conformance/programs/falai-end-to-end.test.ts",
  "test/conformance/programs/falai-replay.test.ts",
].filter((f) => fs.existsSync(path.join(REPO, f)));

const CASES = Number(process.env.FUZZ_CASES ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);

/** mulberry32: small, fast, seedable. */
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

const SNIPPETS = ["{", "}", "[", "]", "(", ")", '"', "'", "`", ":", ",", ".", "...", "=>", "target: ", "#", "\n", "states: {", "on: {", "invoke: {", "src: ", "return ", "if (", "?", "${", "/*", "//", "createMachine(", "setupAgent({"];

/** A const holding a prompt of `terms` strings joined with `+`: one nesting level per term. */
const longPrompt = (terms: number) => `\nexport const LONG_PROMPT = ${Array.from({ length: terms }, (_, i) => JSON.stringify(`line ${i}`)).join(" + ")};\n`;
/** Parentheses nested deeper than the TypeScript parser reads. */
const TOO_DEEP = `\nexport const TOO_DEEP = ${"(".repeat(5000)}1${")".repeat(5000)};\n`;

function mutate(text: string, rand: () => number): string {
  const at = () => Math.floor(rand() * (text.length + 1));
  const roll = rand();
  // deep code, now and then (they cost more than the other mutations): at a statement boundary, so the
  // rest of the file still reads
  if (roll < 0.03) return text + longPrompt(1500 + Math.floor(rand() * 2000));
  if (roll < 0.04) return text + TOO_DEEP;
  switch (Math.floor(rand() * 5)) {
    case 0: // truncate
      return text.slice(0, at());
    case 1: {
      // delete a run of characters
      const start = at();
      return text.slice(0, start) + text.slice(start + 1 + Math.floor(rand() * 20));
    }
    case 2: {
      // insert syntax
      const start = at();
      return text.slice(0, start) + SNIPPETS[Math.floor(rand() * SNIPPETS.length)] + text.slice(start);
    }
    case 3: {
      // duplicate a slice somewhere else
      const a = at();
      const b = Math.min(text.length, a + Math.floor(rand() * 200));
      const c = at();
      return text.slice(0, c) + text.slice(a, b) + text.slice(c);
    }
    default: {
      // several small edits
      let t = text;
      for (let i = 0; i < 4; i++) {
        const p = Math.floor(rand() * (t.length + 1));
        t = rand() < 0.5 ? t.slice(0, p) + t.slice(p + 1) : t.slice(0, p) + SNIPPETS[Math.floor(rand() * SNIPPETS.length)] + t.slice(p);
      }
      return t;
    }
  }
}

describe("fuzz: truncated and mutated fixtures", function () {
  this.timeout(600_000);
  const guarded: string[] = [];
  /** Failures of this case: what the parser cannot read is expected (and must be said); anything else is a bug. */
  let failuresThisCase: string[] = [];
  before(() =>
    setAnalysisErrorListener((error, where) => {
      failuresThisCase.push(where);
      if (where !== "parsing the file" && !where.startsWith("reading ")) guarded.push(`${where}: ${error instanceof Error ? error.stack : String(error)}`);
    }),
  );
  after(() => setAnalysisErrorListener(undefined));

  it(`${CASES} cases (seed ${SEED}): no exception, every case analyzed`, () => {
    assert.ok(CORPUS.length >= 6);
    const rand = prng(SEED);
    const originals = CORPUS.map((f) => ({ file: path.join(REPO, f), text: fs.readFileSync(path.join(REPO, f), "utf8") }));
    // One workspace, as in the editor: a mutated file is set over and over; its imports stay readable.
    const ws = createWorkspace({ roots: [REPO] });
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let worst = { ms: 0, label: "" };
    let silentlyUnanalysed = 0;
    let saidFailed = 0;
    let deepCases = 0;
    for (let i = 0; i < CASES; i++) {
      const original = originals[Math.floor(rand() * originals.length)]!;
      const text = mutate(original.text, rand);
      const label = `case ${i} (${path.basename(original.file)}, ${text.length} chars)`;
      ws.setFile(original.file, text);
      if (text.includes("TOO_DEEP") || text.includes("LONG_PROMPT")) deepCases++;
      failuresThisCase = [];
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      let analysis;
      let analyses: Array<{ findings: Array<{ code: string }> }> = [];
      try {
        analysis = ws.analyze(original.file);
        analyses = [analysis, ...ws.dependentsOf(original.file).map((dependent) => ws.analyze(dependent))];
      } catch (error) {
        assert.fail(`${label} threw: ${error instanceof Error ? error.stack : String(error)}`);
      }
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuStarted);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
      times.push(ms);
      if (ms > worst.ms) worst = { ms, label };
      assert.equal(analysis.file, original.file);
      for (const f of analysis.findings) assert.ok(f.range.start <= f.range.end && f.range.end <= Math.max(text.length, f.range.end), label);
      assert.deepEqual(guarded, [], label);
      // a failure nobody can see: no analysis of this case says analysis-failed
      if (failuresThisCase.length) {
        if (analyses.some((a) => a.findings.some((f) => f.code === "analysis-failed"))) saidFailed++;
        else silentlyUnanalysed++;
      }
    }
    for (const o of originals) ws.setFile(o.file, o.text);
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const pct = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor(list.length * p))]!.toFixed(1);
    console.log(`      fuzz: ${deepCases} cases with deep code, ${saidFailed} of them (or others) with an analysis-failed finding, ${silentlyUnanalysed} silently unanalysed`);
    assert.equal(silentlyUnanalysed, 0, "files whose analysis failed without an analysis-failed finding");
    assert.ok(deepCases > 0 && saidFailed > 0, "the deep-code mutations ran, and what the parser cannot read was said");
    console.log(`      fuzz: ${CASES} cases (target < 200 ms each): wall median ${pct(times, 0.5)} ms, p99 ${pct(times, 0.99)} ms, max ${worst.ms.toFixed(1)} ms (${worst.label}); CPU median ${pct(cpuTimes, 0.5)} ms, p99 ${pct(cpuTimes, 0.99)} ms, max ${pct(cpuTimes, 1)} ms`);
  });
});
