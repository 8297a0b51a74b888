// CI reports through the built CLI on a copy of examples/: the JUnit file read back with a real XML
// parser against the common JUnit schema's shape; GitHub annotations for run failures and check findings
// when GITHUB_ACTIONS=true; and two shards' blob reports merged into the report (and the coverage) an
// unsharded run gives.
import assert from "node:assert/strict";
import { cpSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { XMLParser } from "fast-xml-parser";
import { cliPath, root, suiteCache, tempDir } from "../harness/support";

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : v === undefined ? [] : [v as Node]);

/** The elements and attributes of the common JUnit schema (Ant / Jenkins), plus `file` and `line` on a
 *  testcase, which GitHub's and GitLab's JUnit readers take for the location. */
const SCHEMA: Record<string, { attrs: string[]; required: string[]; children: string[] }> = {
  testsuites: { attrs: ["name", "tests", "failures", "errors", "skipped", "disabled", "time"], required: [], children: ["testsuite"] },
  testsuite: { attrs: ["name", "tests", "failures", "errors", "skipped", "disabled", "time", "timestamp", "hostname", "id", "package"], required: ["name", "tests"], children: ["testcase", "properties", "system-out", "system-err"] },
  testcase: { attrs: ["name", "classname", "time", "assertions", "status", "file", "line"], required: ["name"], children: ["failure", "error", "skipped", "properties", "system-out", "system-err"] },
  failure: { attrs: ["message", "type"], required: [], children: [] },
  error: { attrs: ["message", "type"], required: [], children: [] },
  skipped: { attrs: ["message"], required: [], children: [] },
  properties: { attrs: [], required: [], children: ["property"] },
  property: { attrs: ["name", "value"], required: ["name", "value"], children: [] },
  "system-out": { attrs: [], required: [], children: [] },
};

function validate(name: string, node: Node, path = name): void {
  const shape = SCHEMA[name];
  assert.ok(shape, `${path}: <${name}> is not a JUnit element`);
  for (const key of Object.keys(node)) {
    if (key.startsWith("@_")) assert.ok(shape.attrs.includes(key.slice(2)), `${path}: attribute ${key.slice(2)} is not in the schema`);
    else if (key !== "#text") {
      assert.ok(shape.children.includes(key), `${path}: <${key}> may not be inside <${name}>`);
      list(node[key]).forEach((child, i) => validate(key, typeof child === "object" ? child : {}, `${path}/${key}[${i}]`));
    }
  }
  for (const a of shape.required) assert.ok(`@_${a}` in node, `${path}: attribute ${a} is required`);
  for (const a of ["tests", "failures", "errors", "skipped"]) if (`@_${a}` in node) assert.match(String(node[`@_${a}`]), /^\d+$/, `${path}@${a}`);
  if ("@_time" in node) assert.match(String(node["@_time"]), /^\d+(\.\d+)?$/, `${path}@time`);
}

const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, parseAttributeValue: false, isArray: (n) => ["testsuite", "testcase"].includes(n) }).parse(xml) as Node;
const stripTimes = (xml: string) => xml.replace(/ time="[\d.]+"/g, "");

describe("cli: CI reports (JUnit, GitHub annotations, blob and merge-reports)", function () {
  this.timeout(300_000);
  const cache = suiteCache();
  let dir: string;
  before(() => {
    dir = tempDir("ci");
    cpSync(join(root, "examples"), dir, { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(process.execPath, [cliPath(), command, ...args], { cwd: dir, encoding: "utf8", timeout: 120_000, env: { ...process.env, AGENT_LENS_CACHE_DIR: cache(), NO_COLOR: "1", GITHUB_ACTIONS: "", ...env } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("--reporter junit --output-file: one testcase per test, failures with message and location, the schema's shape", () => {
    const r = cli("run", ["--reporter", "junit", "--output-file", "report.xml"]);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, "", "no text report when junit alone is asked for");
    const xml = readFileSync(join(dir, "report.xml"), "utf8");
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    const doc = parse(xml);
    const suites = doc.testsuites as Node;
    validate("testsuites", suites);
    const suiteList = list(suites.testsuite);
    assert.deepEqual(suiteList.map((s) => s["@_name"]), ["failing/score-threshold.test.ts", "falai/replay.test.ts", "falai/triage-agent.test.ts", "stately/email-agent.test.ts", "stately/mistakes.test.ts", "stately/support-triage.eval.ts"]);
    const cases = suiteList.flatMap((s) => list(s.testcase));
    assert.equal(cases.length, 9);
    assert.equal(Number(suites["@_tests"]), 9);
    assert.equal(Number(suites["@_failures"]), 2);
    for (const s of suiteList) assert.equal(Number(s["@_tests"]), list(s.testcase).length);
    const failed = cases.filter((c) => c.failure !== undefined);
    assert.deepEqual(failed.map((c) => c["@_name"]), ["the draft scores a perfect 5", "mistakes.test.ts"]);
    const perfect = failed[0]!;
    assert.deepEqual([perfect["@_classname"], perfect["@_file"], perfect["@_line"]], ["failing/score-threshold.test.ts", "failing/score-threshold.test.ts", "19"]);
    const failure = perfect.failure as Node;
    assert.equal(failure["@_message"], "the judge scored the draft below 5");
    assert.equal(failure["@_type"], "ERR_ASSERTION");
    assert.match(String(failure["#text"]), /at failing\/score-threshold\.test\.ts:21:10/);
    assert.equal((failed[1]!.failure as Node)["@_type"], "unknown-script-key");
  });

  it("GITHUB_ACTIONS=true: an ::error annotation per run failure at its location, and per check finding", () => {
    const r = cli("run", ["failing/score-threshold.test.ts"], { GITHUB_ACTIONS: "true" });
    assert.equal(r.status, 1);
    const annotations = r.stdout.split("\n").filter((l) => l.startsWith("::"));
    assert.deepEqual(annotations, ["::error file=failing/score-threshold.test.ts,line=21,col=10,title=the draft scores a perfect 5::the judge scored the draft below 5%0A+ actual - expected%0A%0A  {%0A+   score: 4%0A-   score: 5%0A  }"]);
    const quiet = cli("run", ["failing/score-threshold.test.ts"]);
    assert.doesNotMatch(quiet.stdout, /^::/m, "nothing outside GitHub Actions");
    const findings = JSON.parse(cli("check", ["--format", "json"]).stdout) as { findings: Array<{ file: string; line: number; column: number; severity: string; code: string }> };
    const check = cli("check", ["--format", "json"], { GITHUB_ACTIONS: "true" });
    JSON.parse(check.stdout); // stdout stays the JSON report
    const lines = check.stderr.split("\n").filter((l) => l.startsWith("::"));
    assert.equal(lines.length, findings.findings.length);
    const level = { error: "error", warning: "warning", info: "notice", hint: "notice" } as Record<string, string>;
    findings.findings.forEach((f, i) => assert.ok(lines[i]!.startsWith(`::${level[f.severity]} file=${f.file},line=${f.line},col=${f.column},`) && lines[i]!.includes(`title=agent-lens ${f.code}::`), lines[i]));
    const text = cli("check", [], { GITHUB_ACTIONS: "true" });
    assert.equal(text.stdout.split("\n").filter((l) => l.startsWith("::error ")).length, findings.findings.filter((f) => f.severity === "error").length);
  });

  it("two shards' blob reports, merged, equal an unsharded run's report and coverage", () => {
    const full = cli("run", ["--reporter", "text", "--reporter", "junit", "--output-file", "full.xml", "--coverage", "--coverage-dir", "cov-full"]);
    for (const shard of ["1/2", "2/2"]) {
      const r = cli("run", ["--shard", shard, "--reporter", "blob", "--coverage", "--coverage-dir", `cov-${shard.replace("/", "-")}`]);
      assert.match(r.stderr, new RegExp(`wrote the blob report to agent-lens-reports/blob-${shard.replace("/", "-")}\\.json`));
    }
    assert.deepEqual(readdirSync(join(dir, "agent-lens-reports")).sort(), ["blob-1-2.json", "blob-2-2.json"]);
    const merged = cli("merge-reports", ["agent-lens-reports", "--reporter", "text", "--reporter", "junit", "--output-file", "merged.xml", "--coverage-dir", "cov-merged"]);
    assert.equal(merged.status, full.status);
    assert.equal(merged.status, 1);
    const closing = (s: string) => s.split("\n").find((l) => /^\d+ passed, \d+ failed/.test(l));
    assert.equal(closing(merged.stdout), "7 passed, 2 failed");
    assert.equal(closing(merged.stdout), closing(full.stdout));
    assert.equal(stripTimes(readFileSync(join(dir, "merged.xml"), "utf8")), stripTimes(readFileSync(join(dir, "full.xml"), "utf8")));
    for (const f of ["coverage.json", "lcov.info"]) assert.equal(readFileSync(join(dir, "cov-merged", f), "utf8"), readFileSync(join(dir, "cov-full", f), "utf8"), f);
    assert.match(merged.stdout, /^Agent coverage$/m);
    // merged in another checkout (a CI job elsewhere): the blobs' paths move to it
    const elsewhere = tempDir("ci-merge");
    try {
      cpSync(dir, elsewhere, { recursive: true });
      const r = spawnSync(process.execPath, [cliPath(), "merge-reports", "--reporter", "junit", "--output-file", "moved.xml", "--coverage-dir", "cov-moved"], { cwd: elsewhere, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", GITHUB_ACTIONS: "" } });
      assert.equal(r.status, 1, r.stderr);
      assert.equal(stripTimes(readFileSync(join(elsewhere, "moved.xml"), "utf8")).split(dir).length, 1, "no path of the first checkout is left");
      assert.equal(readFileSync(join(elsewhere, "cov-moved", "lcov.info"), "utf8"), readFileSync(join(dir, "cov-full", "lcov.info"), "utf8"));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("bad usage exits 2: an unknown reporter, junit and text both on stdout, a folder without blobs", () => {
    assert.equal(cli("run", ["--reporter", "xml"]).status, 2);
    assert.equal(cli("run", ["--reporter", "junit", "--reporter", "text"]).status, 2);
    const none = cli("merge-reports", ["no-such-folder"]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no-such-folder: no such folder/);
  });
});
