import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FINDING_CODES } from "../../server/src/analysis/types";
import { REPO, runCli, tempProject } from "./cli-harness";

/** Every `// expect: <code>[, <code>]` comment under examples/: the planted mistakes; and every
 *  `// expect-hint: <code>`, a hint (the editor shows it without a Problems entry), marked ` (hint)`. */
function plantedMistakes(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== "node_modules") walk(abs);
      else if (/\.(?:ts|mts|js|mjs)$/.test(e.name)) {
        fs.readFileSync(abs, "utf8").split(/\r?\n/).forEach((line, i) => {
          const m = /\/\/\s*expect(-hint)?:\s*([a-z-]+(?:\s*,\s*[a-z-]+)*)\s*$/.exec(line);
          if (!m) return;
          for (const code of m[2]!.split(/\s*,\s*/)) if (code in FINDING_CODES) out.push(`${path.relative(REPO, abs).split(path.sep).join("/")}:${i + 1}:${code}${m[1] ? " (hint)" : ""}`);
        });
      }
    }
  };
  walk(path.join(REPO, "examples"));
  return out.sort();
}

interface JsonReport {
  files: number;
  findings: Array<{ file: string; line: number; column: number; endLine: number; endColumn: number; severity: string; code: string; message: string }>;
}

const TYPO_MACHINE = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });
export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "bb" } }, b: {} } });
`;

describe("agent-lens check", function () {
  this.timeout(120_000);

  it("prints exactly the planted mistakes of examples/ (each marked `// expect: <code>`)", () => {
    const expected = plantedMistakes();
    assert.ok(expected.length >= 4, "the examples plant mistakes");
    const r = runCli(["check", "examples", "--format", "json"]);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    const actual = report.findings.map((f) => `${f.file}:${f.line}:${f.code}${f.severity === "hint" ? " (hint)" : ""}`).sort();
    assert.deepEqual(actual, expected);
    assert.ok(report.files >= 6);
    for (const f of report.findings) assert.ok(f.line >= 1 && f.column >= 1 && f.endLine >= f.line);
  });

  it("text format: file:line:col severity code message, no colour when not a terminal", () => {
    const r = runCli(["check", "examples/stately"]);
    assert.equal(r.status, 1);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 5);
    assert.ok(!r.stdout.includes("\x1b["));
    assert.match(lines.find((l) => l.includes("unknown-target"))!, /^examples\/stately\/mistakes\.ts:26:45 error unknown-target Transition target "reveiw" \(from state "summarizing"\) names no state\. Did you mean 'review'\?$/);
    assert.match(lines.find((l) => l.includes(" hint "))!, /^examples\/stately\/mistakes\.ts:\d+:\d+ hint unnamed-request .*its invoke id "0\.\(machine\)\.titling"/);
    assert.match(r.stderr, /6 files checked: 2 errors, 2 warnings, 1 hint/);
  });

  it("sarif format: SARIF 2.1.0 with every catalogue rule and 1-based regions", () => {
    const r = runCli(["check", "examples/stately", "--format", "sarif"]);
    assert.equal(r.status, 1);
    const log = JSON.parse(r.stdout);
    assert.equal(log.version, "2.1.0");
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, "agent-lens");
    assert.deepEqual(run.tool.driver.rules.map((rule: { id: string }) => rule.id).sort(), Object.keys(FINDING_CODES).sort());
    assert.equal(run.results.length, 5);
    const target = run.results.find((x: { ruleId: string }) => x.ruleId === "unknown-target");
    assert.equal(target.level, "error");
    assert.deepEqual(target.locations[0].physicalLocation.region, { startLine: 26, startColumn: 45, endLine: 26, endColumn: 51 });
    assert.equal(target.locations[0].physicalLocation.artifactLocation.uri, "examples/stately/mistakes.ts");
    assert.equal(run.results.find((x: { ruleId: string }) => x.ruleId === "unreachable-state").level, "warning");
    // the nearest name is in the message text of both libraries' findings
    assert.match(target.message.text, /Did you mean 'review'\?$/);
    assert.match(run.results.find((x: { ruleId: string }) => x.ruleId === "unknown-script-key").message.text, /Did you mean 'draftEmail'\?$/);
  });

  it("exit 0 on a clean tree; --max-warnings fails on too many warnings", () => {
    const clean = runCli(["check", "examples/stately/email-agent.ts", "examples/stately/email-agent.test.ts"]);
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    assert.equal(clean.stdout, "");
    const dir = tempProject({ "agent.ts": TYPO_MACHINE.replace(`"bb"`, `"a"`) }); // only an unreachable-state warning
    try {
      assert.equal(runCli(["check"], dir).status, 0);
      assert.equal(runCli(["check", "--max-warnings", "1"], dir).status, 0);
      const strict = runCli(["check", "--max-warnings", "0"], dir);
      assert.equal(strict.status, 1);
      assert.match(strict.stdout, /agent\.ts:3:\d+ warning unreachable-state/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("defaults to the current folder, skips node_modules and .gitignore'd files, follows tsconfig paths", () => {
    const dir = tempProject({
      "tsconfig.json": `{ "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"] } } }`,
      ".gitignore": "generated/\n",
      "src/agent.ts": TYPO_MACHINE.replace(`"bb"`, `"b"`),
      "test/agent.test.ts": `import { runSeam } from "@statelyai/agent/testing";\nimport { machine } from "@app/agent";\nawait runSeam(machine, { scripts: { drat: ["x"] }, seam: { request: "draft" } });\n`,
      "generated/bad.ts": TYPO_MACHINE,
      "node_modules/pkg/bad.ts": TYPO_MACHINE,
    });
    try {
      const r = runCli(["check", "--format", "json"], dir);
      const report = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(report.findings.map((f) => `${f.file}:${f.line}:${f.code}`), ["test/agent.test.ts:3:unknown-script-key"]);
      assert.equal(report.files, 2);
      assert.equal(r.status, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never skips silently: a file over the size limit and states nested too deep are info findings (exit 0)", () => {
    const filler = `  "0123456789012345678901234567890123456789",\n`.repeat(100_000);
    let nested = "{}";
    for (let i = 70; i >= 1; i--) nested = `{ initial: "s${i}", states: { s${i}: ${nested} } }`;
    const dir = tempProject({
      "big.ts": `import { setupAgent } from "@statelyai/agent";\nexport const data = [\n${filler}];\n`,
      "data.ts": `export const data = [\n${filler}];\n`, // no agent code in it: nothing to say
      "deep.ts": `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: {} });\nexport const deep = agent.createMachine(${nested});\n`,
    });
    try {
      const r = runCli(["check"], dir);
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split("\n");
      assert.deepEqual(lines.map((l) => l.split(" ").slice(0, 3).join(" ")), ["big.ts:1:1 info analysis-skipped", `deep.ts:3:${nested.indexOf("s65:") + "export const deep = agent.createMachine(".length + 1} info analysis-skipped`]);
      assert.match(lines[0]!, /Not analyzed: the file has 4,600,0\d\d characters, over the 4,000,000 limit/);
      assert.match(lines[1]!, /Not analyzed: states nested more than 64 levels deep\. The states inside "s65" \(level 65\) were skipped/);
      assert.equal(r.stderr.trim(), "3 files checked: 0 errors, 0 warnings, 2 info");
      const json = JSON.parse(runCli(["check", "--format", "json"], dir).stdout) as JsonReport;
      assert.deepEqual(json.findings.map((f) => [f.file, f.severity, f.code]), [["big.ts", "info", "analysis-skipped"], ["deep.ts", "info", "analysis-skipped"]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never drops a file silently (issue 26): deep code is analyzed, and what cannot be read is an analysis-failed error (exit 1)", () => {
    const head = `import { setupAgent } from "@statelyai/agent";\nconst agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });\n`;
    const machine = `export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "bb" } }, b: {} } });\n`;
    const prompt = `export const PROMPT = ${Array.from({ length: 2500 }, (_, i) => JSON.stringify(`line ${i} of a long prompt`)).join(" +\n  ")};\n`;
    const dir = tempProject({
      "long-prompt.ts": head + prompt + machine,
      "long-prompt.test.ts": `import { runSeam } from "@statelyai/agent/testing";\nimport { machine } from "./long-prompt";\nawait runSeam(machine, { scripts: { drat: ["x"] }, seam: { request: "draft" } });\n`,
      "parens.ts": `${head}export const N = ${"(".repeat(5000)}1${")".repeat(5000)};\n${machine}`,
    });
    try {
      const r = runCli(["check", "--format", "json"], dir);
      assert.equal(r.status, 1, r.stderr);
      const report = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(report.findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.code}`), ["long-prompt.test.ts:3 error unknown-script-key", "long-prompt.ts:2503 error unknown-target", "parens.ts:1 error analysis-failed"]);
      assert.match(report.findings[2]!.message, /^Analysis failed while parsing the file: the code nests too deeply to be read \(RangeError: Maximum call stack size exceeded\)/);
      const text = runCli(["check"], dir);
      assert.equal(text.status, 1);
      assert.match(text.stdout, /parens\.ts:1:1 error analysis-failed Analysis failed while parsing the file/);
      assert.match(text.stderr, /3 files checked: 3 errors, 0 warnings/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps V8's code cache of its bundle in the cache folder's v8/, one file, and reports the same from it (also from a damaged one)", () => {
    const dir = tempProject({ "agent.ts": TYPO_MACHINE });
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "agent-lens-check-cache-"));
    try {
      const env = { AGENT_LENS_CACHE_DIR: cache };
      const caches = () => fs.readdirSync(path.join(cache, "v8")).filter((f) => f.startsWith("check-"));
      const first = runCli(["check", "--format", "json"], dir, env);
      assert.equal(first.status, 1, first.stderr);
      assert.equal(caches().length, 1);
      const file = path.join(cache, "v8", caches()[0]!);
      const size = fs.statSync(file).size;
      assert.ok(size > 100_000, `${size} bytes`);
      const second = runCli(["check", "--format", "json"], dir, env);
      assert.deepEqual([second.status, second.stdout], [first.status, first.stdout]);
      fs.writeFileSync(file, "not a code cache");
      const third = runCli(["check", "--format", "json"], dir, env);
      assert.deepEqual([third.status, third.stdout], [first.status, first.stdout]);
      assert.ok(fs.statSync(file).size > 100_000, "a damaged cache is written again");
      fs.writeFileSync(path.join(cache, "v8", "check-0000000000000000.v8"), "an earlier build's");
      fs.writeFileSync(file, "damaged again");
      runCli(["check"], dir, env);
      assert.deepEqual(caches(), [path.basename(file)], "an earlier build's cache is removed when one is written");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });

  it("bad usage exits 2 with a clear message; --help exits 0", () => {
    const format = runCli(["check", "--format", "xml"]);
    assert.equal(format.status, 2);
    assert.match(format.stderr, /unknown format "xml"/);
    const option = runCli(["check", "--frobnicate"]);
    assert.equal(option.status, 2);
    assert.match(option.stderr, /frobnicate/);
    const missing = runCli(["check", "no/such/folder"]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file or folder: no\/such\/folder/);
    const warnings = runCli(["check", "--max-warnings", "many"]);
    assert.equal(warnings.status, 2);
    assert.match(warnings.stderr, /--max-warnings needs a whole number/);
    const help = runCli(["check", "--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /usage: agent-lens check/);
  });
});
