// The same folder gives the same findings in the editor and in CI: `agent-lens check` and the language
// server read one .vscode/settings.json (JSONC: comments, trailing commas) through the one settings
// module — severity overrides, a code turned off, one turned on, "hint" as a severity of its own.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "jsonc-parser";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { runCli } from "../cli/cli-harness";
import { DEFAULT_CAPABILITIES, TestClient } from "./support/client";
import { copyWorkspace } from "./support/fixtures";

const SETTINGS = `{
  // what the team agreed on, for the editor and for CI
  "agentLens.diagnostics.severity": {
    "unknown-target": "warning",
    "unknown-request": "off",
    "unknown-field": "hint", /* still shown, as a hint */
    "invoke-without-on-error": "info", // off by default: turned on here
  },
}
`;
const SEVERITY_NAMES = ["", "error", "warning", "info", "hint"];

describe("settings: CLI and server give the same findings for a folder's .vscode/settings.json", function () {
  this.timeout(120_000);
  let ws: ReturnType<typeof copyWorkspace>;
  before(() => {
    ws = copyWorkspace();
    mkdirSync(join(ws.root, ".vscode"));
    writeFileSync(join(ws.root, ".vscode", "settings.json"), SETTINGS);
  });
  after(() => ws?.dispose());

  function cliFindings(): string[] {
    const r = runCli(["check", "--format", "json"], ws.root);
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    const report = JSON.parse(r.stdout) as { findings: Array<{ file: string; line: number; column: number; code: string; severity: string }> };
    return report.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.code} ${f.severity}`).sort();
  }

  async function serverFindings(client: TestClient): Promise<string[]> {
    await client.waitForReady();
    const files = readdirSync(join(ws.root, "src")).filter((f) => f.endsWith(".ts")).map((f) => join(ws.root, "src", f));
    const out: string[] = [];
    for (const file of files) {
      const uri = client.open(file);
      const ds: Diagnostic[] = await client.waitForDiagnostics(uri);
      for (const d of ds) out.push(`${relative(ws.root, file)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${SEVERITY_NAMES[d.severity ?? 0]}`);
      client.close(uri);
    }
    return out.sort();
  }

  it("check applies the file: overrides, off, on, hint", () => {
    const cli = cliFindings();
    const codes = (code: string) => cli.filter((f) => f.includes(` ${code} `)).map((f) => f.split(" ").at(-1));
    assert.deepEqual(codes("unknown-target"), ["warning"]);
    assert.deepEqual(codes("unknown-request"), [], "turned off");
    assert.ok(codes("unknown-field").length && codes("unknown-field").every((s) => s === "hint"), cli.join("\n"));
    assert.ok(codes("invoke-without-on-error").length > 0, "turned on");
  });

  it("a client without workspace/configuration (Neovim, say) gets exactly the CLI's findings from the file", async () => {
    const cli = cliFindings();
    const { workspace, ...rest } = DEFAULT_CAPABILITIES;
    const client = await TestClient.start({ folders: [ws.root], capabilities: { ...rest, workspace: { ...workspace, configuration: false } }, initializationOptions: { settings: { diagnostics: { debounceMs: 0 } } } });
    try {
      assert.deepEqual(await serverFindings(client), cli);
    } finally {
      await client.stop();
    }
  });

  it("a value the settings module cannot take is named in a log line and one warning notice, as check says it on stderr", async () => {
    const dir = copyWorkspace();
    mkdirSync(join(dir.root, ".vscode"));
    writeFileSync(join(dir.root, ".vscode", "settings.json"), `{ "agentLens.diagnostics.severity": { "unknown-targt": "off" } }`);
    const client = await TestClient.start({ folders: [dir.root], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const said = 'agentLens.diagnostics.severity names "unknown-targt", which is not a finding code: ignored.';
      const notice = await client.waitFor("a settings notice", () => client.notices.find((n) => n.message.includes(said)));
      assert.equal(notice.type, 2, "a warning");
      assert.ok(client.logs.some((l) => l.includes(said)));
      client.notifyServer("workspace/didChangeConfiguration", { settings: null });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(client.notices.filter((n) => n.message.includes(said)).length, 1, "said once");
      assert.match(runCli(["check"], dir.root).stderr, /agentLens\.diagnostics\.severity names "unknown-targt", which is not a finding code: ignored\./);
    } finally {
      await client.stop();
      dir.dispose();
    }
  });

  it("a run setting it cannot take (agentLens.run.timeoutSeconds above 24 h) gets one warning, from the server (the client applies it silently)", async () => {
    const client = await TestClient.start({ folders: [ws.root], settings: { diagnostics: { debounceMs: 0 }, run: { timeoutSeconds: 100_000 } } });
    try {
      await client.waitForReady();
      const said = "agentLens.run.timeoutSeconds is 100000, above the maximum of 86400 s (24 h): using 86400.";
      const notice = await client.waitFor("a settings notice", () => client.notices.find((n) => n.message.includes(said)));
      assert.equal(notice.type, 2, "a warning");
      assert.equal(client.notices.filter((n) => n.message.includes("timeoutSeconds")).length, 1);
    } finally {
      await client.stop();
    }
  });

  it("VS Code, which answers workspace/configuration from that file, gets exactly the CLI's findings too", async () => {
    const cli = cliFindings();
    // What VS Code answers for the section: the file's flat keys, nested.
    const file = parse(SETTINGS, [], { allowTrailingComma: true }) as Record<string, unknown>;
    const answer = { enable: true, testGlobs: ["**/*.{test,spec,eval}.{ts,mts,js,mjs}"], diagnostics: { debounceMs: 0, severity: file["agentLens.diagnostics.severity"] } };
    const client = await TestClient.start({ folders: [ws.root], settings: answer });
    try {
      assert.deepEqual(await serverFindings(client), cli);
    } finally {
      await client.stop();
    }
  });
});
