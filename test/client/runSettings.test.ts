// The editor's run settings come from the one settings module: the same clamp as `agent-lens run` reading
// .vscode/settings.json (test/cli/settings.test.ts). The client applies them without a word: the language
// server says what it could not take, once (test/lsp/settings-parity.test.ts).
import assert from "node:assert/strict";
import { runSettingsOf } from "../../client/src/run/settings";

describe("client: run settings", () => {
  it("agentLens.run.timeoutSeconds above 86400 is clamped, and the client has nothing to say about it", () => {
    const r = runSettingsOf({ enable: true, diagnostics: { debounceMs: 150, severity: { "no-such-code": "off" } }, run: { timeoutSeconds: 100_000, runtime: "auto", jobs: 2 } });
    assert.deepEqual(r, { settings: { timeoutMs: 86_400_000, runtime: "auto" }, jobs: 2 }, "no problems of its own: one warning, from the server");
  });

  it("VS Code's defaults give 30 s, auto, 2 jobs", () => {
    assert.deepEqual(runSettingsOf({ run: { timeoutSeconds: 30, runtime: "auto", jobs: 2 } }), { settings: { timeoutMs: 30_000, runtime: "auto" }, jobs: 2 });
    assert.deepEqual(runSettingsOf(undefined), { settings: { timeoutMs: 30_000, runtime: "auto" }, jobs: 2 });
  });

  it("agentLens.run.recordings and envFile reach every editor run; \"record\" is a command, never a setting", () => {
    assert.deepEqual(runSettingsOf({ run: { recordings: "replay-only", envFile: ".env" } }).settings, { timeoutMs: 30_000, runtime: "auto", recordings: "replay-only", envFile: ".env" });
    assert.deepEqual(runSettingsOf({ run: { recordings: "auto", envFile: "" } }).settings, { timeoutMs: 30_000, runtime: "auto" });
    const record = runSettingsOf({ run: { recordings: "record" } });
    assert.deepEqual(record, { settings: { timeoutMs: 30_000, runtime: "auto" }, jobs: 2 }, "recording is a command, never a setting (the server warns)");
  });
});
