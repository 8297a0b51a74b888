// The one settings module: one set of defaults (package.json's settings declare the same), the rules every
// reader applies (nested or flat keys; unusable values fall back or are clamped, with a message naming
// the setting), and VS Code settings files read as JSONC.
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_SETTINGS, SEVERITY_SETTINGS, layerSections, parseSettings, parseSeverityFlag, readFolderSettings, settingsOfFolder } from "@agent-lens/settings";
import { MAX_TIMEOUT_SECONDS } from "../../shared/protocol/limits";

const ROOT = resolve(__dirname, "../..");

describe("settings: one module for the server, the CLI and the editor", () => {
  it("package.json declares the module's defaults and limits for every agentLens setting", () => {
    type Prop = { default?: unknown; minimum?: number; maximum?: number; enum?: string[]; additionalProperties?: { enum?: string[] } };
    const props = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, Prop> } } }).contributes.configuration.properties;
    const d = DEFAULT_SETTINGS;
    assert.deepEqual(Object.keys(props).sort(), [
      "agentLens.diagnostics.debounceMs", "agentLens.diagnostics.scope", "agentLens.diagnostics.severity", "agentLens.enable", "agentLens.run.envFile", "agentLens.run.jobs", "agentLens.run.modelPrices",
      "agentLens.run.recordings", "agentLens.run.runtime", "agentLens.run.timeoutSeconds", "agentLens.testGlobs",
    ]);
    assert.equal(props["agentLens.enable"]!.default, d.enable);
    assert.equal(props["agentLens.diagnostics.debounceMs"]!.default, d.debounceMs);
    assert.equal(props["agentLens.diagnostics.scope"]!.default, d.diagnosticsScope);
    assert.deepEqual(props["agentLens.diagnostics.scope"]!.enum!.map((v) => parseSettings({ diagnostics: { scope: v } }).settings.diagnosticsScope), ["workspace", "openFiles"]);
    assert.deepEqual(props["agentLens.diagnostics.severity"]!.default, d.severity);
    assert.deepEqual(props["agentLens.diagnostics.severity"]!.additionalProperties!.enum, [...SEVERITY_SETTINGS]);
    assert.deepEqual(props["agentLens.testGlobs"]!.default, d.testGlobs);
    assert.equal(props["agentLens.run.timeoutSeconds"]!.default, d.run.timeoutSeconds);
    assert.equal(props["agentLens.run.timeoutSeconds"]!.maximum, MAX_TIMEOUT_SECONDS);
    assert.equal(props["agentLens.run.timeoutSeconds"]!.minimum, parseSettings({ run: { timeoutSeconds: 0 } }).settings.run.timeoutSeconds);
    assert.equal(props["agentLens.run.runtime"]!.default, d.run.runtime);
    assert.equal(props["agentLens.run.jobs"]!.default, d.run.jobs);
    assert.equal(props["agentLens.run.jobs"]!.maximum, parseSettings({ run: { jobs: 10_000 } }).settings.run.jobs);
    assert.equal(props["agentLens.run.recordings"]!.default, d.run.recordings);
    assert.deepEqual(props["agentLens.run.recordings"]!.enum, ["auto", "replay-only"]);
    assert.deepEqual(props["agentLens.run.recordings"]!.enum!.map((v) => parseSettings({ run: { recordings: v } }).settings.run.recordings), ["auto", "replay-only"]);
    assert.equal(props["agentLens.run.envFile"]!.default, d.run.envFile);
    assert.deepEqual(props["agentLens.run.modelPrices"]!.default, d.run.modelPrices);
  });

  it("agentLens.run.recordings, envFile and modelPrices: usable values taken, the rest named", () => {
    const good = parseSettings({ run: { recordings: "replay-only", envFile: ".env.test", modelPrices: { "my-model": { input: 1, output: 2 } } } });
    assert.deepEqual(good.problems, []);
    assert.equal(good.settings.run.recordings, "replay-only");
    assert.equal(good.settings.run.envFile, ".env.test");
    assert.deepEqual(good.settings.run.modelPrices, { "my-model": { input: 1, output: 2 } });
    const bad = parseSettings({ "run.recordings": "record", "run.envFile": 3, "run.modelPrices": { a: { input: 1 }, b: { input: 1, output: 2 } } });
    assert.deepEqual(bad.settings.run.recordings, "auto");
    assert.deepEqual(bad.settings.run.modelPrices, { b: { input: 1, output: 2 } });
    assert.deepEqual(bad.problems.map((p) => p.message), [
      "agentLens.run.recordings must be one of auto, replay-only, not \"record\": using auto (recording is a command: agent-lens run --record).",
      "agentLens.run.envFile must be a file path, not 3: using none.",
      'agentLens.run.modelPrices gives "a" {"input":1}, not { "input": <USD per 1M>, "output": <USD per 1M> }: ignored.',
    ]);
    const layered = layerSections({ run: { modelPrices: { a: { input: 1, output: 1 }, b: { input: 2, output: 2 } } } }, { "run.modelPrices": { a: { input: 3, output: 3 } } });
    assert.deepEqual(parseSettings(layered).settings.run.modelPrices, { a: { input: 3, output: 3 }, b: { input: 2, output: 2 } });
  });

  it("agentLens.diagnostics.scope: workspace (the default) or openFiles; anything else is named and the default used", () => {
    assert.equal(parseSettings({}).settings.diagnosticsScope, "workspace");
    assert.equal(parseSettings({ "diagnostics.scope": "openFiles" }).settings.diagnosticsScope, "openFiles");
    const bad = parseSettings({ diagnostics: { scope: "everything" } });
    assert.equal(bad.settings.diagnosticsScope, "workspace");
    assert.deepEqual(bad.problems.map((p) => p.message), ['agentLens.diagnostics.scope must be one of workspace, openFiles, not "everything": using workspace.']);
  });

  it("agentLens.run.timeoutSeconds above the harness's maximum is clamped, with a message naming the setting", () => {
    const { settings, problems } = parseSettings({ run: { timeoutSeconds: 100_000 } });
    assert.equal(settings.run.timeoutSeconds, MAX_TIMEOUT_SECONDS);
    assert.deepEqual(problems, [{ setting: "agentLens.run.timeoutSeconds", message: "agentLens.run.timeoutSeconds is 100000, above the maximum of 86400 s (24 h): using 86400." }]);
    assert.match(parseSettings({ "run.timeoutSeconds": 0.5 }).problems[0]!.message, /^agentLens\.run\.timeoutSeconds is 0\.5, below the minimum of 1 s: using 1\.$/);
    assert.match(parseSettings({ run: { timeoutSeconds: "60" } }).problems[0]!.message, /^agentLens\.run\.timeoutSeconds must be a number from 1 to 86400 s \(24 h\), not "60": using 30\.$/);
  });

  it("reads nested and flat keys alike; values that are absent are defaults without a word", () => {
    assert.deepEqual(parseSettings(undefined), { settings: DEFAULT_SETTINGS, problems: [] });
    const nested = parseSettings({ enable: false, diagnostics: { debounceMs: 0, severity: { "unknown-target": "hint" } }, run: { runtime: "bundled", jobs: 4 } });
    const flat = parseSettings({ enable: false, "diagnostics.debounceMs": 0, "diagnostics.severity": { "unknown-target": "hint" }, "run.runtime": "bundled", "run.jobs": 4 });
    assert.deepEqual(nested, flat);
    assert.deepEqual(nested.problems, []);
    assert.equal(nested.settings.severity["unknown-target"], "hint");
  });

  it("names every unusable value and keeps the rest", () => {
    const { settings, problems } = parseSettings({ enable: "yes", diagnostics: { severity: { "unknown-target": "errror", "no-such-code": "off", "unknown-step": "warning" } }, testGlobs: [], run: { runtime: "docker", jobs: 2.5 } });
    assert.deepEqual(settings.severity, { "unknown-step": "warning" });
    assert.equal(settings.enable, true);
    assert.deepEqual(settings.testGlobs, DEFAULT_SETTINGS.testGlobs);
    assert.deepEqual(problems.map((p) => p.setting), ["agentLens.enable", "agentLens.testGlobs", "agentLens.run.runtime", "agentLens.diagnostics.severity", "agentLens.diagnostics.severity", "agentLens.run.jobs"]);
    assert.ok(problems.some((p) => p.message.includes('"errror"')) && problems.some((p) => p.message.includes('"no-such-code"')));
  });

  it("reads .vscode/settings.json as JSONC, flat agentLens.* keys over an agentLens object", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-lens-settings-"));
    try {
      assert.deepEqual(settingsOfFolder(dir), { settings: DEFAULT_SETTINGS, file: undefined, problems: [] }, "no file: defaults, no problem");
      mkdirSync(join(dir, ".vscode"));
      writeFileSync(join(dir, ".vscode", "settings.json"), `{\n  // comments\n  "editor.tabSize": 2,\n  "agentLens": { "enable": true, "diagnostics": { "debounceMs": 10 } },\n  "agentLens.diagnostics.debounceMs": 20, /* flat wins */\n  "agentLens.run.timeoutSeconds": 90000,\n}\n`);
      const read = settingsOfFolder(dir);
      assert.equal(read.file, join(dir, ".vscode", "settings.json"));
      assert.equal(read.settings.debounceMs, 20);
      assert.equal(read.settings.run.timeoutSeconds, 86_400);
      assert.deepEqual(read.problems, [`${read.file}: agentLens.run.timeoutSeconds is 90000, above the maximum of 86400 s (24 h): using 86400.`]);
      writeFileSync(join(dir, ".vscode", "settings.json"), `{ "agentLens.enable": false, `);
      assert.match(readFolderSettings(dir).problems[0]!, /settings\.json: .* at offset \d+/);
      assert.match(settingsOfFolder(dir, join(dir, "missing.json")).problems[0]!, /missing\.json: cannot be read \(no such file\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lays a client's answer over the folder's file: keys it gives win, severity maps merge per code", () => {
    const merged = layerSections({ diagnostics: { debounceMs: 5, severity: { "unknown-target": "off", "unknown-step": "hint" } }, testGlobs: ["a"] }, { "diagnostics.severity": { "unknown-target": "warning" }, testGlobs: ["b"] });
    assert.deepEqual(parseSettings(merged).settings.severity, { "unknown-target": "warning", "unknown-step": "hint" });
    assert.deepEqual(parseSettings(merged).settings.testGlobs, ["b"]);
    assert.equal(parseSettings(merged).settings.debounceMs, 5);
  });

  it("--severity code=level takes exactly what the setting takes", () => {
    assert.deepEqual(parseSeverityFlag("unreachable-state=error"), ["unreachable-state", "error"]);
    assert.deepEqual(parseSeverityFlag("invoke-without-on-error=hint"), ["invoke-without-on-error", "hint"]);
    assert.throws(() => parseSeverityFlag("unreachable-state"), /--severity needs code=level/);
    assert.throws(() => parseSeverityFlag("nope=error"), /--severity names "nope", which is not a finding code$/);
    assert.throws(() => parseSeverityFlag("unknown-target=fatal"), /--severity gives "unknown-target" "fatal", not one of error, warning, info, hint, off$/);
  });
});
