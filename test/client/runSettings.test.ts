// The editor's run settings come from the one settings module: the same clamp and the same message as
// `agent-lens run` reading .vscode/settings.json (test/cli/settings.test.ts), only about agentLens.run.*.
import assert from "node:assert/strict";
import { runSettingsOf } from "../../client/src/run/settings";

describe("client: run settings", () => {
  it("agentLens.run.timeoutSeconds above 86400 is clamped, with a warning naming the setting", () => {
    const r = runSettingsOf({ enable: true, diagnostics: { debounceMs: 150, severity: { "no-such-code": "off" } }, run: { timeoutSeconds: 100_000, runtime: "auto", jobs: 2 } });
    assert.deepEqual(r.settings, { timeoutMs: 86_400_000, runtime: "auto" });
    assert.deepEqual(r.problems, ["agentLens.run.timeoutSeconds is 100000, above the maximum of 86400 s (24 h): using 86400."], "the server speaks of the other settings");
  });

  it("VS Code's defaults give 30 s, auto, 2 jobs and no warning", () => {
    assert.deepEqual(runSettingsOf({ run: { timeoutSeconds: 30, runtime: "auto", jobs: 2 } }), { settings: { timeoutMs: 30_000, runtime: "auto" }, jobs: 2, problems: [] });
    assert.deepEqual(runSettingsOf(undefined), { settings: { timeoutMs: 30_000, runtime: "auto" }, jobs: 2, problems: [] });
  });
});
