// Cross-file and workspace behaviour: an edit to a machine re-checks the open eval file that scripts it,
// disk changes reported by the file watcher keep the index current, settings apply per folder and live,
// several folders are indexed side by side, and stale versions are never published.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { TestClient, positionOf, uriOf } from "./support/client";
import { copyWorkspace } from "./support/fixtures";

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code)).sort();
const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

describe("lsp: workspace", function () {
  this.timeout(60_000);

  describe("cross-file updates", () => {
    let ws: ReturnType<typeof copyWorkspace>;
    let client: TestClient;
    beforeEach(async () => {
      ws = copyWorkspace();
      client = await TestClient.start({ folders: [ws.root], settings: { diagnostics: { debounceMs: 0 } } });
      await client.waitForReady();
    });
    afterEach(async () => {
      await client?.stop();
      ws?.dispose();
    });

    it("re-checks the open eval file when the machine it scripts is edited", async () => {
      const email = join(ws.root, "src", "email.ts");
      const evalFile = join(ws.root, "src", "email.eval.ts");
      const emailUri = client.open(email);
      const evalUri = client.open(evalFile);
      assert.deepEqual(await client.waitForDiagnostics(evalUri), []);
      const key = positionOf(readFileSync(email, "utf8"), "scoreDraft: {");
      const range = { start: key, end: { line: key.line, character: key.character + "scoreDraft".length } };
      client.change(emailUri, [{ range, text: "judgeDraft" }]);
      const broken = await client.waitFor("unknown-script-key in the eval file", () => {
        const ds = client.diagnostics.get(evalUri)?.diagnostics ?? [];
        return ds.some((d) => d.code === "unknown-script-key") ? ds : undefined;
      });
      assert.deepEqual(codes(broken), ["unknown-script-key", "unknown-seam"]);
      // The machine file itself now invokes a request it does not declare.
      assert.deepEqual(codes(client.diagnostics.get(emailUri)!.diagnostics), ["unknown-request"]);
      // Undo: the eval file is clean again.
      client.change(emailUri, [{ range, text: "scoreDraft" }]);
      await client.waitFor("clean eval file", () => client.diagnostics.get(evalUri)?.diagnostics.length === 0 || undefined);
    });

    it("follows disk changes reported by the file watcher (change, create, delete)", async () => {
      const email = join(ws.root, "src", "email.ts");
      const evalUri = client.open(join(ws.root, "src", "email.eval.ts"));
      assert.deepEqual(await client.waitForDiagnostics(evalUri), []);
      const before = client.statuses.at(-1)!;

      // The machine changes on disk (it is not open): the open eval file is re-checked.
      writeFileSync(email, readFileSync(email, "utf8").replace("scoreDraft: {", "judgeDraft: {"));
      client.notifyServer("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(email), type: CHANGED }] });
      await client.waitFor("unknown-script-key after a disk change", () => client.diagnostics.get(evalUri)?.diagnostics.some((d) => d.code === "unknown-script-key") || undefined);

      // A new agent file appears: the index counts its flow.
      const extra = join(ws.root, "src", "extra.ts");
      writeFileSync(extra, 'import { falai } from "@falai/agent";\nconst f = falai().fields({});\nexport const extra = f.flow({ id: "extra", on: [{ message: [] }], steps: [{ id: "s1", prompt: "Oi" }] });\n');
      client.notifyServer("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(extra), type: CREATED }] });
      const grown = await client.waitFor("a status with one more definition", () => client.statuses.find((s) => s.state === "ready" && s.files === before.files + 1));
      assert.equal(grown.definitions, before.definitions + 1);
      const catalog = await client.request<{ flows: Array<{ name: string }> }>("agentLens/catalog", {});
      assert.ok(catalog.flows.some((f) => f.name === "extra"));

      // Deleted (a rename arrives as delete + create): gone from the index and the catalog.
      rmSync(extra);
      client.notifyServer("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(extra), type: DELETED }] });
      await client.waitFor("the definition count back down", () => {
        const last = client.statuses.at(-1)!;
        return last.files === before.files && last.definitions === before.definitions ? last : undefined;
      });
      const after = await client.request<{ flows: Array<{ name: string }> }>("agentLens/catalog", {});
      assert.ok(!after.flows.some((f) => f.name === "extra"));
    });

    it("re-indexes when tsconfig.json changes", async () => {
      const indexingBefore = client.statuses.filter((s) => s.state === "indexing").length;
      client.notifyServer("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(join(ws.root, "tsconfig.json")), type: CHANGED }] });
      await client.waitFor("another indexing run", () => client.statuses.filter((s) => s.state === "indexing").length > indexingBefore || undefined);
      const ready = await client.waitFor("ready again", () => {
        const last = client.statuses.at(-1)!;
        return last.state === "ready" ? last : undefined;
      });
      assert.equal(ready.definitions, 7);
    });
  });

  describe("settings", () => {
    let ws: ReturnType<typeof copyWorkspace>;
    let client: TestClient;
    before(async () => {
      ws = copyWorkspace();
      client = await TestClient.start({ folders: [ws.root], settings: { diagnostics: { debounceMs: 0 } } });
      await client.waitForReady();
    });
    after(async () => {
      await client?.stop();
      ws?.dispose();
    });

    const changeSettings = (settings: Record<string, unknown>) => {
      client.setSettings(settings);
      client.notifyServer("workspace/didChangeConfiguration", { settings: null });
    };

    it("applies per-code severity overrides live (including off and hint)", async () => {
      const uri = client.open(join(ws.root, "src", "broken.ts"));
      await client.waitForDiagnostics(uri, (ds) => ds.length === 2);
      const published = client.published.length;
      changeSettings({ diagnostics: { debounceMs: 0, severity: { "unknown-target": "warning", "unknown-request": "off" } } });
      const ds = await client.waitFor("re-published diagnostics", () => (client.published.slice(published).some((p) => p.uri === uri) ? client.diagnostics.get(uri)!.diagnostics : undefined));
      assert.deepEqual(ds.map((d) => [d.code, d.severity]), [["unknown-target", 2]]);
      changeSettings({ diagnostics: { debounceMs: 0, severity: { "unknown-target": "hint" } } });
      const hinted = await client.waitFor("hint severity", () => client.diagnostics.get(uri)!.diagnostics.find((d) => d.code === "unknown-target" && d.severity === 4));
      assert.ok(hinted);
      client.close(uri);
    });

    it("diagnostics.scope: every indexed agent file's findings without opening it (workspace, the default); openFiles withdraws them", async () => {
      const uri = uriOf(join(ws.root, "src", "broken.ts"));
      changeSettings({ diagnostics: { debounceMs: 0 } });
      // published for the file on disk (no version: no open document)
      await client.waitFor("the closed file's findings", () => (client.diagnostics.get(uri)?.version === undefined && client.diagnostics.get(uri)?.diagnostics.length === 2) || undefined);
      changeSettings({ diagnostics: { debounceMs: 0, scope: "openFiles" } });
      await client.waitFor("withdrawn", () => client.diagnostics.get(uri)?.diagnostics.length === 0 || undefined);
      // open files still get theirs; closing one clears them in this scope
      const open = client.open(join(ws.root, "src", "broken.ts"));
      await client.waitForDiagnostics(open, (ds) => ds.length === 2);
      client.close(open);
      await client.waitFor("cleared on close", () => client.diagnostics.get(uri)?.diagnostics.length === 0 || undefined);
      changeSettings({ diagnostics: { debounceMs: 0, scope: "workspace" } });
      await client.waitFor("back", () => client.diagnostics.get(uri)?.diagnostics.length === 2 || undefined);
    });

    it("turns off for a folder with enable: false, and back on", async () => {
      const uri = client.open(join(ws.root, "src", "broken.ts"));
      await client.waitForDiagnostics(uri, (ds) => ds.length > 0);
      changeSettings({ enable: false, diagnostics: { debounceMs: 0 } });
      await client.waitFor("no diagnostics when disabled", () => client.diagnostics.get(uri)!.diagnostics.length === 0 || undefined);
      assert.deepEqual(await client.request("textDocument/codeLens", { textDocument: { uri } }), []);
      changeSettings({ enable: true, diagnostics: { debounceMs: 0 } });
      await client.waitFor("diagnostics again", () => client.diagnostics.get(uri)!.diagnostics.length === 2 || undefined);
      client.close(uri);
    });

    it("never publishes a version that a newer edit replaced within the debounce window", async () => {
      changeSettings({ diagnostics: { debounceMs: 300 } });
      await new Promise((r) => setTimeout(r, 200)); // let the server read the new settings
      const mark = client.published.length;
      const uri = client.open(join(ws.root, "src", "broken.ts"));
      let version = 1;
      for (let i = 0; i < 5; i++) version = client.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `// edit ${i}\n` }]);
      const ds = await client.waitForDiagnostics(uri, () => true, version);
      assert.equal(ds.length, 2);
      // (unversioned messages are the closed file's, published before it was opened: scope "workspace")
      const versions = client.published.slice(mark).filter((p) => p.uri === uri && p.version !== undefined).map((p) => p.version);
      assert.deepEqual(versions, [version], "only the newest version was analyzed and published");
      client.close(uri);
    });
  });

  describe("multi-root", () => {
    it("follows folders added and removed while running", async () => {
      const a = copyWorkspace();
      const b = copyWorkspace();
      const client = await TestClient.start({ folders: [a.root], settings: { diagnostics: { debounceMs: 0 } } });
      try {
        assert.equal((await client.waitForReady()).definitions, 7);
        const inA = client.open(join(a.root, "src", "broken.ts"));
        await client.waitForDiagnostics(inA, (ds) => ds.length === 2);
        client.notifyServer("workspace/didChangeWorkspaceFolders", { event: { added: [{ uri: uriOf(b.root), name: "b" }], removed: [] } });
        await client.waitFor("both folders indexed", () => client.statuses.find((s) => s.state === "ready" && s.definitions === 14));
        client.notifyServer("workspace/didChangeWorkspaceFolders", { event: { added: [], removed: [{ uri: uriOf(a.root), name: "a" }] } });
        // The open document outside every folder still gets its diagnostics (from the fallback workspace).
        const mark = client.published.length;
        client.change(inA, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "// moved\n" }]);
        await client.waitFor("diagnostics after the folder left", () => client.published.slice(mark).find((p) => p.uri === inA && p.diagnostics.length === 2));
        const inB = client.open(join(b.root, "src", "onboarding.ts"));
        assert.deepEqual(codes(await client.waitForDiagnostics(inB)), ["unknown-field", "unknown-step"]);
      } finally {
        await client.stop();
        a.dispose();
        b.dispose();
      }
    });

    it("indexes every folder and applies each folder's own settings", async () => {
      const a = copyWorkspace();
      const b = copyWorkspace();
      const client = await TestClient.start({
        folders: [a.root, b.root],
        settings: (scopeUri) => (scopeUri === uriOf(b.root) ? { diagnostics: { debounceMs: 0, severity: { "unknown-target": "off" } } } : { diagnostics: { debounceMs: 0 } }),
      });
      try {
        const ready = await client.waitForReady();
        assert.equal(ready.definitions, 14);
        assert.equal(ready.files, 8);
        const inA = client.open(join(a.root, "src", "broken.ts"));
        const inB = client.open(join(b.root, "src", "broken.ts"));
        assert.deepEqual(codes(await client.waitForDiagnostics(inA)), ["unknown-request", "unknown-target"]);
        assert.deepEqual(codes(await client.waitForDiagnostics(inB)), ["unknown-request"]);
        // Definitions resolve within their own folder.
        const def = await client.request<Array<{ uri: string }>>("textDocument/definition", { textDocument: { uri: inB }, position: positionOf(readFileSync(join(b.root, "src", "broken.ts"), "utf8"), '"drafting"', 2) });
        assert.deepEqual(def.map((d) => d.uri), [uriOf(join(b.root, "src", "broken.ts"))]);
      } finally {
        await client.stop();
        a.dispose();
        b.dispose();
      }
    });
  });
});
