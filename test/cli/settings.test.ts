// `agent-lens check` and `agent-lens run` read the working directory's .vscode/settings.json through the
// one settings module, as the editor does; `check --severity code=level` and `--config <file>` on top;
// `run` takes agentLens.run.timeoutSeconds from the file, clamped with the editor's message.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli, tempProject } from "./cli-harness";

const MACHINE = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draft: { model: "writer", prompt: "p" } } });
export const machine = agent.createMachine({ initial: "a", states: { a: { invoke: { src: "draft", onDone: "bb" } }, b: {}, c: {} } });
`;

const findings = (stdout: string) => (JSON.parse(stdout) as { findings: Array<{ code: string; severity: string }> }).findings.map((f) => `${f.code} ${f.severity}`);

describe("agent-lens check and run: the editor's settings", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const make = (files: Record<string, string>) => {
    const d = tempProject(files);
    dirs.push(d);
    return d;
  };

  it("check: without settings the defaults; .vscode/settings.json's severities; --severity wins over the file", () => {
    const dir = make({ "agent.ts": MACHINE });
    assert.deepEqual(findings(runCli(["check", "--format", "json"], dir).stdout), ["unknown-target error", "unreachable-state warning"]);
    fs.mkdirSync(path.join(dir, ".vscode"));
    fs.writeFileSync(path.join(dir, ".vscode/settings.json"), `{\n  // the team's choice\n  "agentLens.diagnostics.severity": { "unknown-target": "hint", "unreachable-state": "off", "invoke-without-on-error": "warning", },\n}\n`);
    const fromFile = runCli(["check", "--format", "json"], dir);
    assert.deepEqual(findings(fromFile.stdout), ["invoke-without-on-error warning", "unknown-target hint"]);
    assert.equal(fromFile.status, 0, "a hint is not an error");
    const flags = runCli(["check", "--format", "json", "--severity", "unknown-target=error", "--severity", "invoke-without-on-error=off"], dir);
    assert.deepEqual(findings(flags.stdout), ["unknown-target error"]);
    assert.equal(flags.status, 1);
    const text = runCli(["check"], dir);
    assert.match(text.stdout, /agent\.ts:3:\d+ hint unknown-target/);
    assert.match(text.stderr, /1 file checked: 0 errors, 1 warning, 1 hint/);
    const sarif = JSON.parse(runCli(["check", "--format", "sarif"], dir).stdout);
    assert.equal(sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === "unknown-target").level, "note");
  });

  it("check --config reads another settings file; unusable values are said on stderr, naming the setting", () => {
    const dir = make({ "agent.ts": MACHINE, "ci/agent-lens.json": `{ "agentLens.diagnostics.severity": { "unknown-target": "warning", "unknown-targt": "off" } }` });
    const r = runCli(["check", "--format", "json", "--config", "ci/agent-lens.json"], dir);
    assert.deepEqual(findings(r.stdout), ["unknown-target warning", "unreachable-state warning"]);
    assert.match(r.stderr, /ci\/agent-lens\.json: agentLens\.diagnostics\.severity names "unknown-targt", which is not a finding code: ignored\./);
  });

  it("check refuses a bad --severity or a missing --config with exit 2", () => {
    const dir = make({ "agent.ts": MACHINE });
    const bad = runCli(["check", "--severity", "unknown-target=fatal"], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--severity gives "unknown-target" "fatal", not one of error, warning, info, hint, off/);
    const missing = runCli(["check", "--config", "nope.json"], dir);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nope\.json: cannot be read \(no such file\)/);
  });

  it("check honours agentLens.enable: false as the editor does (nothing checked, said on stderr)", () => {
    const dir = make({ "agent.ts": MACHINE, ".vscode/settings.json": `{ "agentLens.enable": false }` });
    const r = runCli(["check", "--format", "json"], dir);
    assert.equal(r.status, 0);
    assert.deepEqual(JSON.parse(r.stdout), { files: 0, findings: [] });
    assert.match(r.stderr, /agentLens\.enable is false in .*settings\.json: nothing checked/);
  });

  it("run takes agentLens.run.timeoutSeconds from the file: above 86400 it is clamped with the editor's message; --timeout still wins", () => {
    const dir = make({
      "package.json": `{ "type": "module" }`,
      "slow.test.ts": `await new Promise((r) => setTimeout(r, 3000));\n`,
      ".vscode/settings.json": `{ "agentLens.run.timeoutSeconds": 100000 }`,
    });
    const clamped = runCli(["run", "slow.test.ts"], dir);
    assert.match(clamped.stderr, /agent-lens run: .*settings\.json: agentLens\.run\.timeoutSeconds is 100000, above the maximum of 86400 s \(24 h\): using 86400\./);
    assert.equal(clamped.status, 0, clamped.stdout + clamped.stderr);
    fs.writeFileSync(path.join(dir, ".vscode/settings.json"), `{ "agentLens.run.timeoutSeconds": 1 }`);
    const short = runCli(["run", "slow.test.ts"], dir);
    assert.equal(short.status, 1);
    assert.match(short.stdout, /time|timeout/i);
    assert.equal(runCli(["run", "slow.test.ts", "--timeout", "30"], dir).status, 0, "the command line wins over the file");
  });
});
