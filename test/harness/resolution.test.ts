// Which copy of the libraries and their dependencies a file gets, the reporter's call sites, the bundle
// cache, and the promise to write nothing into the workspace. Workspaces are built in temp folders so
// nothing under node_modules is tracked in the repository.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decideRuntime } from "../../runtime/src/harness/packages";
import type { HarnessEvent } from "../../runtime/src/harness/index";
import { ensureBuilt, runCollect, snapshot, suiteWorkspaces, tempDir, testEnds } from "./support";


/** A local @statelyai/agent with the documented names; its runSeam reports through the harness hook. */
function statelyCopy(version: string, withApi = true): Record<string, string> {
  return {
    "node_modules/@statelyai/agent/package.json": JSON.stringify({
      name: "@statelyai/agent", version, type: "module",
      exports: { ".": "./index.mjs", "./testing": "./testing.mjs" },
    }),
    "node_modules/@statelyai/agent/index.mjs": withApi
      ? `export function setupAgent(config) { return { createMachine: (m) => ({ ...m, config }) }; }\nexport const origin = "workspace copy";\n`
      : `export function createAgent() { return {}; }\nexport const origin = "old api";\n`,
    "node_modules/@statelyai/agent/testing.mjs": [
      `export async function runSeam(machine, options) {`,
      `  const callSite = new Error("agent-lens call site");`,
      `  await Promise.resolve();`,
      `  const result = { seamOutput: options.answer, calls: [] };`,
      `  const reporter = globalThis[Symbol.for("agent-lens.reporter")];`,
      `  if (typeof reporter === "function") reporter({ kind: "seam", payload: { request: "draft", seamOutput: result.seamOutput, cyclic: globalThis }, callSite });`,
      `  return result;`,
      `}`,
    ].join("\n"),
  };
}

const EVAL = [
  `import assert from "node:assert/strict";`,
  `import { setupAgent, origin } from "@statelyai/agent";`,
  `import { runSeam } from "@statelyai/agent/testing";`,
  `import { answer } from "./helper";`,
  `assert.equal(origin, "workspace copy");`,
  `const run = await runSeam(setupAgent({}).createMachine({ id: "m" }), { answer });`,
  `assert.equal(run.seamOutput, 42);`,
  ``,
].join("\n");

describe("harness: resolution, call sites, cache", function () {
  this.timeout(60_000);
  let cacheDir: string;
  const workspace = suiteWorkspaces();
  before(() => {
    ensureBuilt();
    cacheDir = tempDir("cache");
  });
  after(() => {
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("uses the workspace's own @statelyai/agent when it provides the documented API, and reports it", async () => {
    const ws = workspace({ ...statelyCopy("3.0.0-local"), "eval.test.ts": EVAL, "helper.ts": "export const answer: number = 42;\n" });
    const file = join(ws, "eval.test.ts");
    const { events, result } = await runCollect({ file, cacheDir });
    const start = events.find((e) => e.type === "start");
    assert.equal(start?.type === "start" && start.runtime["@statelyai/agent"], "workspace");
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
    // The runtime's report becomes a result event at the user's call (line 6), through the source map.
    const results = events.filter((e): e is Extract<HarnessEvent, { type: "result" }> => e.type === "result");
    assert.equal(results.length, 1);
    assert.equal(results[0]!.kind, "seam");
    assert.equal(results[0]!.test, "eval.test.ts");
    assert.deepEqual(results[0]!.callSite, { file, line: 6, column: 19 });
    assert.equal((results[0]!.data as { seamOutput: number }).seamOutput, 42);
  });

  it("reuses the cached bundle on a second run and rebuilds when an imported file changes", async () => {
    const ws = workspace({ ...statelyCopy("3.0.0-local"), "eval.test.ts": EVAL, "helper.ts": "export const answer: number = 42;\n" });
    const file = join(ws, "eval.test.ts");
    const first = await runCollect({ file, cacheDir });
    assert.equal(first.result.bundle.cached, false);
    const second = await runCollect({ file, cacheDir });
    assert.equal(second.result.bundle.cached, true);
    assert.equal(second.result.status, "passed");
    writeFileSync(join(ws, "helper.ts"), "export const answer: number = 41;\n");
    const third = await runCollect({ file, cacheDir });
    assert.equal(third.result.bundle.cached, false);
    assert.equal(third.result.status, "failed");
    assert.equal(testEnds(third.events)[0]!.failure?.location?.line, 7);
  });

  it("writes nothing into the workspace", async () => {
    const ws = workspace({ ...statelyCopy("3.0.0-local"), "eval.test.ts": EVAL, "helper.ts": "export const answer: number = 42;\n" });
    const before = snapshot(ws);
    await runCollect({ file: join(ws, "eval.test.ts"), cacheDir });
    await runCollect({ file: join(ws, "eval.test.ts"), cacheDir });
    assert.deepEqual(snapshot(ws), before);
  });

  it("--runtime workspace refuses an installed copy of the old API with a clear message", async () => {
    const ws = workspace({ ...statelyCopy("1.1.6", false), "eval.test.ts": EVAL, "helper.ts": "export const answer = 42;\n" });
    const { events, result } = await runCollect({ file: join(ws, "eval.test.ts"), cacheDir, runtime: "workspace" });
    assert.equal(result.status, "failed");
    const failure = testEnds(events)[0]!.failure!;
    assert.equal(failure.code, "missing-import");
    assert.match(failure.message, /@statelyai\/agent@1\.1\.6 in the workspace is not the documented API/);
  });

  it("decides per package: the documented API (version ≥ 3 or setupAgent in the entry) versus the old 1.x / 2.0.0-next", () => {
    const decide = (version: string, withApi: boolean) => {
      const ws = workspace(statelyCopy(version, withApi));
      return decideRuntime("auto", ws).get("@statelyai/agent")!;
    };
    assert.equal(decide("3.0.0", true).choice, "workspace");
    assert.equal(decide("2.1.0", true).choice, "workspace");
    assert.equal(decide("2.1.0", false).choice, "bundled");
    assert.equal(decide("2.0.0-next.4", true).choice, "bundled");
    const old = decide("1.1.6", false);
    assert.equal(old.choice, "bundled");
    assert.match(old.rejected ?? "", /not the documented API/);
    const ws = workspace(statelyCopy("3.0.0", true));
    assert.equal(decideRuntime("bundled", ws).get("@statelyai/agent")!.choice, "bundled");
    assert.equal(decideRuntime("auto", ws).get("zod")!.choice, "bundled");
  });

  it("falls back to the zod and ai/test we ship when the workspace has none", async () => {
    const ws = workspace({
      "vendored.test.ts": [
        `import assert from "node:assert/strict";`,
        `import { z } from "zod";`,
        `import { MockLanguageModelV3 } from "ai/test";`,
        `import { generateText } from "ai";`,
        `const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: "text", text: "hi" }], finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] }) });`,
        `const { text } = await generateText({ model, prompt: "hello" });`,
        `assert.equal(z.string().parse(text), "hi");`,
      ].join("\n"),
    });
    const { events, result } = await runCollect({ file: join(ws, "vendored.test.ts"), cacheDir });
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
    assert.deepEqual(result.runtime, { zod: "bundled", ai: "bundled" });
  });

  it("keeps other installed packages external, loaded from the workspace's node_modules (their own files work)", async () => {
    const ws = workspace({
      "node_modules/reads-its-dir/package.json": JSON.stringify({ name: "reads-its-dir", version: "1.0.0", main: "index.js" }),
      "node_modules/reads-its-dir/index.js": `module.exports = require("fs").readFileSync(require("path").join(__dirname, "data.txt"), "utf8");\n`,
      "node_modules/reads-its-dir/data.txt": "beside the package",
      "native.test.ts": `import assert from "node:assert/strict";\nimport text from "reads-its-dir";\nassert.equal(text, "beside the package");\n`,
    });
    const { events, result } = await runCollect({ file: join(ws, "native.test.ts"), cacheDir });
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
  });
});
