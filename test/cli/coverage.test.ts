// agent-lens run --coverage on examples/ through the built CLI: the table, coverage.json and lcov.info
// against a hand count of one stately machine (stately/support-triage.ts, run by its three node:test evals)
// and two falai flows (falai/triage-agent.ts, run by its end-to-end script), --coverage-min, and that
// nothing is written without the flag.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AgentCoverage, CoverageReport } from "@agent-lens/protocol";
import { root, runCli, suiteCache, tempDir } from "../harness/support";

const examples = join(root, "examples");
const evals = ["stately/support-triage.eval.ts", "falai/triage-agent.test.ts"];

describe("cli: agent-lens run --coverage", function () {
  this.timeout(180_000);
  const cache = suiteCache();
  let out: string;
  let report: CoverageReport;
  let stdout: string;
  before(() => {
    out = tempDir("coverage");
    const r = runCli([...evals, "--coverage", "--coverage-dir", out], examples, cache());
    ({ stdout } = r);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    report = JSON.parse(readFileSync(join(out, "coverage.json"), "utf8")) as CoverageReport;
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  const agent = (file: string, name: string): AgentCoverage => {
    const found = report.agents.find((a) => a.file === file && a.name === name);
    assert.ok(found, `${name} in ${file}: ${report.agents.map((a) => `${a.file} ${a.name}`).join(", ")}`);
    return found;
  };
  const hits = (items: Array<{ path?: string; label?: string; name?: string; hits: number }>) => Object.fromEntries(items.map((i) => [i.path ?? i.name ?? i.label, i.hits]));

  it("the support-triage machine, by hand: 4 states, 3 transitions, 2 requests, each reached by the right tests", () => {
    const m = agent("stately/support-triage.ts", "machine");
    assert.equal(m.runs, 3);
    assert.deepEqual(m.counts.states, { covered: 4, total: 4 });
    assert.deepEqual(m.counts.transitions, { covered: 3, total: 3 });
    assert.deepEqual(m.counts.requests, { covered: 2, total: 2 });
    // triage in all three tests; answering / answered by the how-to test and the seam; escalated by the outage
    assert.deepEqual(hits(m.nodes), { triage: 3, answering: 2, answered: 2, escalated: 1 });
    assert.deepEqual(m.nodes.map((n) => n.line), [23, 37, 44, 48]);
    assert.deepEqual(m.edges.map((e) => [e.label, e.line, e.hits]), [["ANSWER", 33, 2], ["ESCALATE", 34, 1], ["done", 41, 2]]);
    const escalated = m.nodes.find((n) => n.path === "escalated")!;
    assert.deepEqual(escalated.tests.map((i) => report.tests[i]), [{ file: "stately/support-triage.eval.ts", name: "an outage is escalated without drafting a reply" }]);
  });

  it("the triage flows, by hand: triagem asks in quem (nome filled, empresa not); retomar speaks in p1 and parks in w1", () => {
    const triagem = agent("falai/triage-agent.ts", "triagem");
    assert.deepEqual(triagem.counts.steps, { covered: 1, total: 2 });
    assert.deepEqual(triagem.counts.branches, { covered: 0, total: 2 });
    assert.deepEqual(triagem.counts.fields, { covered: 1, total: 2 });
    assert.deepEqual(hits(triagem.nodes), { quem: 1, tchau: 0 });
    assert.deepEqual(hits(triagem.fields), { empresa: 0, nome: 1 });
    const retomar = agent("falai/triage-agent.ts", "retomar");
    assert.deepEqual(retomar.counts.steps, { covered: 2, total: 3 });
    assert.deepEqual(retomar.counts.branches, { covered: 1, total: 4 });
    assert.deepEqual(retomar.edges.map((e) => [retomar.nodes.find((n) => n.id === e.source)?.path, e.exit, e.hits]), [["p1", "then", 1], ["w1", "then", 0], ["w1", "else", 0], ["p2", "then", 0]]);
  });

  it("prints the table with the totals and the percent: (4 + 3 + 3 + 1) of (4 + 3 + 5 + 6) items", () => {
    assert.equal(report.percent, 61.11);
    assert.deepEqual([report.totals.states, report.totals.transitions, report.totals.steps, report.totals.branches], [
      { covered: 4, total: 4 }, { covered: 3, total: 3 }, { covered: 3, total: 5 }, { covered: 1, total: 6 },
    ]);
    assert.match(stdout, /machine machine\s+stately\/support-triage\.ts:19\s+states 4\/4\s+transitions 3\/3\s+requests 2\/2\s+100\.0%/);
    assert.match(stdout, /flow retomar\s+falai\/triage-agent\.ts:21\s+steps 2\/3\s+branches 1\/4\s+fields -\s+42\.9%/);
    assert.match(stdout, /^all .*61\.1%$/m);
    assert.deepEqual(report.unmatched, []);
  });

  it("lcov.info: states and steps as lines at their source line, transitions and ways out of steps as branches", () => {
    const lcov = readFileSync(join(out, "lcov.info"), "utf8");
    const record = lcov.split("end_of_record").find((r) => r.includes("SF:stately/support-triage.ts"))!;
    assert.deepEqual(record.match(/^DA:.*$/gm), ["DA:23,3", "DA:37,2", "DA:44,2", "DA:48,1"]);
    assert.deepEqual(record.match(/^BRDA:(\d+),\d+,(\d+),(.*)$/gm)!.map((l) => l.replace(/^BRDA:(\d+),\d+,/, "$1,")), ["33,0,2", "34,1,1", "41,0,2"]);
    assert.match(record, /^FN:19,machine machine$/m);
    assert.match(record, /^LF:4\nLH:4$/m);
    const flows = lcov.split("end_of_record").find((r) => r.includes("SF:falai/triage-agent.ts"))!;
    // p2 never reached: its way out is "-" (not executed); w1 reached, neither way out taken: 0
    assert.deepEqual(flows.match(/^BRDA:28,\d+,0,(.*)$/m)?.[1], "-");
    assert.deepEqual(flows.match(/^BRDA:27,\d+,\d,(.*)$/gm)?.map((l) => l.at(-1)), ["0", "0"]);
    assert.match(flows, /^DA:28,0$/m);
  });

  it("--coverage-min: under it exits 1 and says so; at or over it passes", () => {
    const strict = runCli([...evals, "--coverage-min", "101", "--coverage-dir", out], examples, cache());
    assert.equal(strict.status, 1, strict.stdout + strict.stderr);
    assert.match(strict.stderr, /agent coverage 61\.11% is under --coverage-min 101%/);
    const fine = runCli([...evals, "--coverage-min", "61", "--coverage-dir", out], examples, cache());
    assert.equal(fine.status, 0, fine.stdout + fine.stderr);
    const bad = runCli([...evals, "--coverage-min", "lots"], examples, cache());
    assert.equal(bad.status, 2);
  });

  it("without --coverage nothing is written and the analysis never runs", () => {
    const r = runCli([evals[0]!], examples, cache());
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /Agent coverage/);
    assert.equal(existsSync(join(examples, "coverage")), false);
  });
});
