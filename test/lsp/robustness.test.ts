// The server never crashes: malformed params, unknown URIs, huge and non-TypeScript files are answered
// with empty results (and a log line), and the server still answers real requests afterwards.
import assert from "node:assert/strict";
import { join } from "node:path";
import { TestClient, uriOf } from "./support/client";
import { REPO } from "./support/build";

const WORKSPACE = join(REPO, "test", "fixtures", "lsp", "workspace");

describe("lsp: robustness", function () {
  this.timeout(60_000);
  let client: TestClient;

  before(async () => {
    client = await TestClient.start({ folders: [WORKSPACE], settings: { diagnostics: { debounceMs: 0 } } });
    await client.waitForReady();
  });
  after(async () => client?.stop());

  async function stillAnswers(): Promise<void> {
    const uri = uriOf(join(WORKSPACE, "src", "onboarding.ts"));
    const symbols = await client.request<unknown[]>("textDocument/documentSymbol", { textDocument: { uri } });
    assert.ok(Array.isArray(symbols), "documentSymbol still answers with a list");
    assert.ok(client.alive, "server process is alive");
  }

  it("answers malformed params with empty results", async () => {
    const malformed: Array<[string, unknown]> = [
      ["textDocument/completion", null],
      ["textDocument/completion", { textDocument: {}, position: { line: "x" } }],
      ["textDocument/definition", { textDocument: { uri: 42 }, position: null }],
      ["textDocument/references", { position: { line: 0, character: 0 } }],
      ["textDocument/hover", { textDocument: { uri: uriOf(join(WORKSPACE, "src", "email.ts")) }, position: { line: -5, character: 1e9 } }],
      ["textDocument/hover", { textDocument: { uri: uriOf(join(WORKSPACE, "src", "email.ts")) }, position: { line: 1e6, character: 0 } }],
      ["textDocument/rename", { textDocument: { uri: "file:///nope.ts" }, position: { line: 0, character: 0 }, newName: 7 }],
      ["textDocument/prepareRename", {}],
      ["textDocument/documentSymbol", { textDocument: null }],
      ["textDocument/codeAction", { textDocument: { uri: "not a uri" }, range: null, context: null }],
      ["textDocument/codeLens", []],
      ["agentLens/graphs", { uri: null }],
      ["agentLens/catalog", "junk"],
    ];
    for (const [method, params] of malformed) {
      let result: unknown;
      try {
        result = await client.request<unknown>(method, params);
      } catch (error) {
        // Params that are not even an object are refused by the JSON-RPC layer itself: an answer, not a crash.
        assert.equal((error as { code?: number }).code, -32602, `${method} with ${JSON.stringify(params)}: ${String(error)}`);
        continue;
      }
      const empty = result === null || (Array.isArray(result) && result.length === 0) || (typeof result === "object" && result !== null && "machines" in result);
      assert.ok(empty, `${method} with ${JSON.stringify(params)} answered ${JSON.stringify(result)}`);
    }
    await stillAnswers();
  });

  it("answers requests about unknown URIs with empty results", async () => {
    const uri = "file:///does/not/exist/anywhere.ts";
    const position = { line: 0, character: 0 };
    assert.deepEqual(await client.request("textDocument/documentSymbol", { textDocument: { uri } }), []);
    assert.deepEqual(await client.request("textDocument/completion", { textDocument: { uri }, position }), []);
    assert.deepEqual(await client.request("textDocument/definition", { textDocument: { uri }, position }), []);
    assert.deepEqual(await client.request("textDocument/codeLens", { textDocument: { uri } }), []);
    assert.equal(await client.request("textDocument/hover", { textDocument: { uri }, position }), null);
    assert.deepEqual(await client.request("agentLens/graphs", { uri: "untitled:nothing" }), []);
    // Notifications about documents never opened are ignored, not fatal.
    client.notifyServer("textDocument/didChange", { textDocument: { uri, version: 3 }, contentChanges: [{ text: "x" }] });
    client.notifyServer("textDocument/didClose", { textDocument: { uri } });
    client.notifyServer("workspace/didChangeWatchedFiles", { changes: [{ uri: "file:///does/not/exist.ts", type: 2 }, { uri: 5, type: 9 }] });
    client.notifyServer("workspace/didChangeConfiguration", null);
    await stillAnswers();
  });

  it("skips a 5 MB file with a log line and stays responsive", async () => {
    const line = 'export const filler = "setupAgent createMachine @statelyai/agent ........................................";\n';
    const huge = 'import { setupAgent } from "@statelyai/agent";\n' + line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
    assert.ok(huge.length > 5 * 1024 * 1024);
    const uri = client.open(join(WORKSPACE, "src", "huge-generated.ts"), huge);
    const diagnostics = await client.waitForDiagnostics(uri);
    assert.deepEqual(diagnostics, []);
    await client.waitFor("a skip log line", () => client.logs.find((l) => l.includes("huge-generated.ts") && l.includes("MB limit")));
    assert.deepEqual(await client.request("textDocument/documentSymbol", { textDocument: { uri } }), []);
    assert.deepEqual(await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 3, character: 10 } }), []);
    client.change(uri, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: "// edit\n" }]);
    client.close(uri);
    await stillAnswers();
  });

  it("skips non-TypeScript documents with a log line", async () => {
    const uri = client.open(join(WORKSPACE, "notes.md"), "# setupAgent\n\n```ts\ncreateMachine({})\n```\n", "markdown");
    const diagnostics = await client.waitForDiagnostics(uri);
    assert.deepEqual(diagnostics, []);
    await client.waitFor("a skip log line", () => client.logs.find((l) => l.includes("notes.md") && l.includes("not TypeScript")));
    assert.deepEqual(await client.request("textDocument/documentSymbol", { textDocument: { uri } }), []);
    client.close(uri);
    await stillAnswers();
  });

  it("survives a document edited with out-of-range and overlapping changes", async () => {
    const uri = client.open(join(WORKSPACE, "src", "scratch.ts"), 'import { falai } from "@falai/agent";\nconst f = falai();\n');
    await client.waitForDiagnostics(uri);
    const version = client.change(uri, [
      { range: { start: { line: 99, character: 99 }, end: { line: 120, character: 0 } }, text: "tail" },
      { range: { start: { line: 1, character: 5 }, end: { line: 0, character: 0 } }, text: "" },
    ]);
    await client.waitForDiagnostics(uri, () => true, version);
    client.close(uri);
    await stillAnswers();
  });
});
