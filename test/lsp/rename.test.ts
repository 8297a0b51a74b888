// Rename through the real server over stdio, on an eval whose executor routes on request.name: the
// executor's `case` label and the expected calls list are renamed with the request; a comparison the
// analysis cannot tie to the machine comes back as an annotated edit whose change annotation needs
// confirmation (the editor's rename preview asks). A client without change annotations gets the sure
// edits and a message naming the place left unchanged.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnnotatedTextEdit, TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { DEFAULT_CAPABILITIES, TestClient, positionOf, uriOf } from "./support/client";

const AGENT = `import { setupAgent } from "@statelyai/agent";
const agent = setupAgent({ requests: { draftEmail: { model: "writer", prompt: "p" }, scoreDraft: { model: "judge", prompt: "q" } } });
export const machine = agent.createMachine({ initial: "drafting", states: {
  drafting: { invoke: { src: "draftEmail", onDone: "scoring" } },
  scoring: { invoke: { src: "scoreDraft", onDone: "done" } },
  done: { type: "final" } } });
`;
const EVAL = `import assert from "node:assert/strict";
import { runAgent } from "@statelyai/agent";
import { machine } from "./agent";

const calls: string[] = [];
await runAgent(machine, {
  input: {},
  executors: {
    generateText: async (request) => {
      calls.push(request.name ?? "");
      switch (request.name) {
        case "draftEmail":
          return { result: "x" };
        default:
          return { result: { score: 4 } };
      }
    },
  },
});
assert.deepEqual(calls, ["draftEmail", "scoreDraft"]);

// Not handed to any run: whether it sees this machine's requests cannot be told.
export const isDraft = (request: { name?: string }) => request.name === "draftEmail";
`;

describe("lsp: rename with places needing confirmation", function () {
  this.timeout(60_000);
  let dir = "";
  let agentFile = "";
  let evalFile = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-lens-rename-"));
    agentFile = join(dir, "agent.ts");
    evalFile = join(dir, "agent.test.ts");
    writeFileSync(agentFile, AGENT);
    writeFileSync(evalFile, EVAL);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const line = (text: string, needle: string) => positionOf(text, needle).line;

  it("annotates the untied comparison as needing confirmation and renames the case label and calls item for sure", async () => {
    const client = await TestClient.start({
      folders: [dir],
      settings: { diagnostics: { debounceMs: 0 } },
      capabilities: { ...DEFAULT_CAPABILITIES, workspace: { ...DEFAULT_CAPABILITIES.workspace, workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } } } },
    });
    try {
      await client.waitForReady();
      const evalUri = client.open(evalFile);
      const agentUri = uriOf(agentFile);
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { textDocument: { uri: evalUri }, position: positionOf(EVAL, '"draftEmail":', 2), newName: "composeEmail" });
      assert.equal(edit.changes, undefined, "document changes, not plain changes, when an edit needs confirmation");
      const docs = edit.documentChanges as TextDocumentEdit[];
      const byUri = new Map(docs.map((d) => [d.textDocument.uri, d]));
      assert.deepEqual([...byUri.keys()].sort(), [agentUri, evalUri].sort());
      assert.equal(byUri.get(evalUri)!.textDocument.version, 1, "the open document's version");
      assert.equal(byUri.get(agentUri)!.textDocument.version, null, "a file that is not open");
      const evalEdits = byUri.get(evalUri)!.edits as Array<TextEdit | AnnotatedTextEdit>;
      const sure = evalEdits.filter((e) => !("annotationId" in e)).map((e) => e.range.start.line).sort((a, b) => a - b);
      assert.deepEqual(sure, [line(EVAL, 'case "draftEmail"'), line(EVAL, "assert.deepEqual(calls")]);
      const asked = evalEdits.filter((e): e is AnnotatedTextEdit => "annotationId" in e);
      assert.deepEqual(asked.map((e) => e.range.start.line), [line(EVAL, 'request.name === "draftEmail"')]);
      const annotation = edit.changeAnnotations![asked[0]!.annotationId];
      assert.equal(annotation.needsConfirmation, true);
      assert.match(annotation.description ?? "", /cannot tie to one machine/);
      for (const e of evalEdits) {
        assert.equal(e.newText, "composeEmail");
        assert.equal(e.range.end.character - e.range.start.character, "draftEmail".length);
      }
      assert.equal(byUri.get(agentUri)!.edits.length, 2, "the requests key and the invoke src");
      assert.ok(byUri.get(agentUri)!.edits.every((e) => !("annotationId" in e)));
      // Renaming scoreDraft needs no confirmation anywhere: plain changes, as before.
      const plain = await client.request<WorkspaceEdit>("textDocument/rename", { textDocument: { uri: evalUri }, position: positionOf(EVAL, '"scoreDraft"]', 2), newName: "judgeDraft" });
      assert.deepEqual(Object.keys(plain.changes ?? {}).sort(), [agentUri, evalUri].sort());
      assert.equal(plain.changes![evalUri].length, 1);
    } finally {
      await client.stop();
    }
  });

  it("refuses a new name that is no valid state key with a clear error: __proto__, constructor, empty, '.' or '#' (issue 26)", async () => {
    const client = await TestClient.start({ folders: [dir], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const agentUri = client.open(agentFile);
      const at = positionOf(AGENT, "scoring: {", 1);
      const refused = async (newName: string) => {
        try {
          await client.request<WorkspaceEdit>("textDocument/rename", { textDocument: { uri: agentUri }, position: at, newName });
        } catch (error) {
          return (error as Error).message;
        }
        assert.fail(`renaming the state to ${JSON.stringify(newName)} was accepted`);
      };
      assert.match(await refused("__proto__"), /^'__proto__' cannot name a state: as an object key it sets the object's prototype instead of adding a key, so the state would vanish at run time/);
      assert.match(await refused("constructor"), /^'constructor' cannot name a state: every JavaScript object already has a 'constructor'/);
      assert.match(await refused("toString"), /^'toString' cannot name a state/);
      assert.match(await refused(""), /cannot be empty/);
      assert.match(await refused("review.done"), /cannot contain '\.' or '#'/);
      assert.match(await refused("#review"), /cannot contain '\.' or '#'/);
      // a request is an object key too
      const request = positionOf(AGENT, "scoreDraft: {", 1);
      await assert.rejects(client.request("textDocument/rename", { textDocument: { uri: agentUri }, position: request, newName: "__proto__" }), /'__proto__' cannot name a request/);
      // a good name still renames
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { textDocument: { uri: agentUri }, position: at, newName: "judging" });
      assert.equal(edit.changes![agentUri]!.length, 2, "the state key and the target naming it");
    } finally {
      await client.stop();
    }
  });

  it("a client without change annotations gets the sure edits, and a message naming the place left unchanged", async () => {
    const client = await TestClient.start({ folders: [dir], settings: { diagnostics: { debounceMs: 0 } } });
    try {
      await client.waitForReady();
      const evalUri = client.open(evalFile);
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { textDocument: { uri: evalUri }, position: positionOf(EVAL, '"draftEmail":', 2), newName: "composeEmail" });
      assert.deepEqual(edit.changes![evalUri].map((e) => e.range.start.line).sort((a, b) => a - b), [line(EVAL, 'case "draftEmail"'), line(EVAL, "assert.deepEqual(calls")]);
      const notice = await client.waitFor("the left-out notice", () => client.notices.find((n) => /left unchanged/.test(n.message)));
      assert.equal(notice.type, 2, "a warning");
      assert.match(notice.message, new RegExp(`agent\\.test\\.ts:${line(EVAL, 'request.name === "draftEmail"') + 1}`));
    } finally {
      await client.stop();
    }
  });
});
