// The real language server over stdio, driven as an editor drives it: open, edit, diagnostics arrive and
// update; completion, definition, references, rename, hover, symbols, code actions, lenses and our custom
// requests answer what the fixtures call for.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeAction, CodeLens, CompletionItem, Diagnostic, DocumentSymbol, Hover, Location, WorkspaceEdit } from "vscode-languageserver-protocol";
import { TestClient, positionOf, uriOf } from "./support/client";
import { FIXTURE_WORKSPACE as WS, at } from "./support/fixtures";

const file = (name: string) => join(WS, "src", name);
const EMAIL = file("email.ts");
const EVAL = file("email.eval.ts");
const BROKEN = file("broken.ts");
const ONBOARDING = file("onboarding.ts");
const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code)).sort();
const labels = (items: CompletionItem[] | null) => (items ?? []).map((i) => i.label);

describe("lsp: protocol", function () {
  this.timeout(60_000);
  let client: TestClient;

  before(async () => {
    client = await TestClient.start({ folders: [WS], settings: { diagnostics: { debounceMs: 0 } } });
    await client.waitForReady();
  });
  after(async () => client?.stop());

  describe("startup", () => {
    it("indexes the folder with progress and reports the definitions it found", async () => {
      const ready = client.statuses.findLast((s) => s.state === "ready")!;
      // email.ts: agent + machine; broken.ts: agent + machine; onboarding.ts: two flows + an agent.
      assert.equal(ready.definitions, 7);
      assert.equal(ready.files, 4, "plain.ts holds no agent code");
      assert.ok(client.statuses.some((s) => s.state === "indexing"), "an indexing status came first");
      const kinds = client.progress.map((p) => p.value.kind);
      assert.equal(kinds[0], "begin");
      assert.ok(kinds.includes("end"), "the progress ended");
      assert.match(client.progress[0].value.title ?? "", /indexing/i);
    });

    it("registers file watchers for sources and tsconfig.json", () => {
      const watchers = client.registrations.find((r) => r.method === "workspace/didChangeWatchedFiles")?.registerOptions as { watchers: Array<{ globPattern: string }> };
      assert.deepEqual(watchers.watchers.map((w) => w.globPattern), ["**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}", "**/tsconfig.json"]);
    });
  });

  describe("diagnostics", () => {
    it("publishes findings with code, source, severity and fix data", async () => {
      const uri = client.open(BROKEN);
      const ds = await client.waitForDiagnostics(uri);
      assert.deepEqual(codes(ds), ["unknown-request", "unknown-target"]);
      const target = ds.find((d) => d.code === "unknown-target")!;
      assert.equal(target.source, "agent-lens");
      assert.equal(target.severity, 1);
      assert.deepEqual(target.range.start, positionOf(readFileSync(BROKEN, "utf8"), '"reviewing"', 1));
      assert.equal((target.data as { code: string }).code, "unknown-target");
      client.close(uri);
    });

    it("updates as the document is edited incrementally", async () => {
      const uri = client.open(BROKEN);
      await client.waitForDiagnostics(uri, (ds) => ds.length === 2);
      const text = readFileSync(BROKEN, "utf8");
      const start = positionOf(text, '"reviewing"', 1);
      // "reviewing" → "review": the unknown target is gone, the unknown request stays.
      const v2 = client.change(uri, [{ range: { start: { line: start.line, character: start.character + 6 }, end: { line: start.line, character: start.character + 9 } }, text: "" }]);
      const after = await client.waitForDiagnostics(uri, () => true, v2);
      assert.deepEqual(codes(after), ["unknown-request"]);
      // Break a target again further down: a new finding appears at the edited place.
      const done = positionOf(text, '"done"', 1, 0);
      const v3 = client.change(uri, [{ range: { start: done, end: { line: done.line, character: done.character + 4 } }, text: "dome" }]);
      const third = await client.waitForDiagnostics(uri, () => true, v3);
      assert.deepEqual(codes(third), ["unknown-request", "unknown-target"]);
      assert.equal(third.find((d) => d.code === "unknown-target")!.range.start.line, done.line);
      client.close(uri);
    });

    it("analyzes untitled documents and answers with their own URI", async () => {
      const uri = "untitled:Untitled-1";
      const text = [
        'import { falai } from "@falai/agent";',
        'const f = falai().fields({ nome: { type: "string", ask: "Nome?" } });',
        'export const boas = f.flow({ id: "boas", on: [{ message: [] }], steps: [{ id: "s1", collect: ["nom"] }] });',
        "",
      ].join("\n");
      client.open("/untitled", text, "typescript", uri);
      const ds = await client.waitForDiagnostics(uri);
      assert.deepEqual(codes(ds), ["unknown-field"]);
      const def = await client.request<Location[]>("textDocument/definition", { textDocument: { uri }, position: positionOf(text, '"s1"', 2) });
      assert.deepEqual(def.map((d) => d.uri), [uri]);
      client.close(uri);
    });

    it("a closed document's findings are those of its file on disk again (diagnostics.scope workspace, the default)", async () => {
      const text = readFileSync(BROKEN, "utf8");
      // Open with the unknown target fixed: one finding; closed, the file on disk has two again.
      const uri = client.open(BROKEN, text.replace('"reviewing"', '"review"'));
      await client.waitForDiagnostics(uri, (ds) => ds.length === 1);
      client.close(uri);
      await client.waitFor("the disk text's findings after close", () => (client.diagnostics.get(uri)?.version === undefined && client.diagnostics.get(uri)?.diagnostics.length === 2) || undefined);
    });

    it("publishes the findings of an indexed agent file nobody opened", async () => {
      const uri = uriOf(EMAIL);
      const ds = await client.waitFor("the unopened file's diagnostics", () => client.diagnostics.get(uri));
      assert.equal(ds.version, undefined);
      assert.deepEqual(ds.diagnostics, [], "email.ts has no findings, and says so");
      const broken = client.published.find((p) => p.uri === uriOf(BROKEN) && p.version === undefined);
      assert.ok(broken, "broken.ts's findings were published before anyone opened it");
    });
  });

  describe("language features", () => {
    let emailUri: string, evalUri: string, onboardingUri: string, brokenUri: string;
    before(async () => {
      emailUri = client.open(EMAIL);
      evalUri = client.open(EVAL);
      onboardingUri = client.open(ONBOARDING);
      brokenUri = client.open(BROKEN);
      await client.waitForDiagnostics(brokenUri);
    });
    after(() => [emailUri, evalUri, onboardingUri, brokenUri].forEach((u) => client.close(u)));

    it("completes state names in targets and initial", async () => {
      const inTarget = await client.request<CompletionItem[]>("textDocument/completion", at(emailUri, EMAIL, 'target: "scoring"', 10));
      assert.deepEqual(labels(inTarget), ["drafting", "scoring", "done"]);
      const range = (inTarget[0].textEdit as { range: { start: { character: number }; end: { character: number } } }).range;
      assert.equal(range.end.character - range.start.character, "scoring".length, "the item replaces the whole string");
      assert.deepEqual(labels(await client.request("textDocument/completion", at(emailUri, EMAIL, 'initial: "drafting"', 11))), ["drafting", "scoring", "done"]);
    });

    it("completes while typing inside a target, before any re-analysis", async () => {
      const text = readFileSync(EMAIL, "utf8");
      const p = positionOf(text, 'target: "done"', 9);
      client.change(emailUri, [{ range: { start: p, end: p }, text: "sc" }]);
      const items = await client.request<CompletionItem[]>("textDocument/completion", { textDocument: { uri: emailUri }, position: { line: p.line, character: p.character + 2 } });
      assert.deepEqual(labels(items), ["drafting", "scoring", "done"]);
      const range = (items[0].textEdit as { range: { start: { character: number }; end: { character: number } } }).range;
      assert.deepEqual([range.start.character, range.end.character], [p.character, p.character + "scdone".length]);
      client.change(emailUri, [{ range: { start: p, end: { line: p.line, character: p.character + 2 } }, text: "" }]);
    });

    it("completes request names in src, seam.request and scripts keys", async () => {
      assert.deepEqual(labels(await client.request("textDocument/completion", at(emailUri, EMAIL, 'src: "draftEmail"', 7))), ["draftEmail", "scoreDraft"]);
      assert.deepEqual(labels(await client.request("textDocument/completion", at(evalUri, EVAL, 'request: "scoreDraft"', 12))), ["draftEmail", "scoreDraft"]);
      const keys = labels(await client.request("textDocument/completion", at(evalUri, EVAL, "draftEmail:", 2)));
      assert.ok(keys.includes("draftEmail") && keys.includes("scoreDraft"), keys.join());
    });

    it("completes field names in collect, step ids in else, and durations", async () => {
      assert.deepEqual(labels(await client.request("textDocument/completion", at(onboardingUri, ONBOARDING, '"emprsa"', 2))), ["nome", "empresa"]);
      const steps = labels(await client.request("textDocument/completion", at(onboardingUri, ONBOARDING, '"fim"', 2)));
      assert.deepEqual(steps, ["p1", "w1", "p2", "end"]);
      const durations = labels(await client.request("textDocument/completion", at(onboardingUri, ONBOARDING, '"24h"', 2)));
      assert.ok(durations.includes("24h") && durations.includes("2d"), durations.join());
      assert.deepEqual(await client.request("textDocument/completion", at(onboardingUri, ONBOARDING, "const f", 2)), [], "nothing outside the strings that name things");
    });

    it("goes to the definition of a target, a src and a seam request (across files)", async () => {
      const emailText = readFileSync(EMAIL, "utf8");
      const toState = await client.request<Location[]>("textDocument/definition", at(emailUri, EMAIL, 'target: "scoring"', 12));
      assert.deepEqual(toState, [{ uri: emailUri, range: { start: positionOf(emailText, "scoring: {"), end: positionOf(emailText, "scoring: {", 7) } }]);
      const toRequest = await client.request<Location[]>("textDocument/definition", at(evalUri, EVAL, 'request: "scoreDraft"', 12));
      assert.deepEqual(toRequest, [{ uri: emailUri, range: { start: positionOf(emailText, "scoreDraft: {"), end: positionOf(emailText, "scoreDraft: {", 10) } }]);
      const fromSrc = await client.request<Location[]>("textDocument/definition", at(emailUri, EMAIL, 'src: "draftEmail"', 8));
      assert.deepEqual(fromSrc.map((l) => l.range.start), [positionOf(emailText, "draftEmail: {")]);
    });

    it("finds every reference to a request, across files", async () => {
      const refs = await client.request<Location[]>("textDocument/references", { ...at(emailUri, EMAIL, "scoreDraft: {", 3), context: { includeDeclaration: true } });
      const where = refs.map((l) => `${l.uri.endsWith("eval.ts") ? "eval" : "email"}:${l.range.start.line}`).sort();
      const emailText = readFileSync(EMAIL, "utf8");
      const evalText = readFileSync(EVAL, "utf8");
      assert.deepEqual(
        where,
        [
          `email:${positionOf(emailText, "scoreDraft: {").line}`,
          `email:${positionOf(emailText, 'src: "scoreDraft"').line}`,
          `eval:${positionOf(evalText, "scoreDraft: [").line}`,
          `eval:${positionOf(evalText, 'request: "scoreDraft"').line}`,
        ].sort(),
      );
    });

    it("renames a request in its declaration, its invoke and the eval file's script key and seam", async () => {
      const prepared = await client.request<{ placeholder: string }>("textDocument/prepareRename", at(emailUri, EMAIL, "scoreDraft: {", 2));
      assert.equal(prepared.placeholder, "scoreDraft");
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { ...at(evalUri, EVAL, 'request: "scoreDraft"', 12), newName: "judgeDraft" });
      const changes = edit.changes!;
      assert.deepEqual(Object.keys(changes).sort(), [evalUri, emailUri].sort());
      assert.equal(changes[emailUri].length, 2);
      assert.equal(changes[evalUri].length, 2);
      for (const e of [...changes[emailUri], ...changes[evalUri]]) {
        assert.equal(e.newText, "judgeDraft");
        assert.equal(e.range.end.character - e.range.start.character, "scoreDraft".length);
      }
    });

    it("renames a state and every target that points at it", async () => {
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { ...at(emailUri, EMAIL, "scoring: {", 1), newName: "judging" });
      const lines = edit.changes![emailUri].map((e) => e.range.start.line).sort((a, b) => a - b);
      const text = readFileSync(EMAIL, "utf8");
      assert.deepEqual(lines, [positionOf(text, 'target: "scoring"').line, positionOf(text, "scoring: {").line]);
    });

    it("goes from a collect entry to its field, and renames the field with its collect entries", async () => {
      const text = readFileSync(ONBOARDING, "utf8");
      const def = await client.request<Location[]>("textDocument/definition", at(onboardingUri, ONBOARDING, '["nome"', 3));
      assert.deepEqual(def.map((d) => d.range.start), [positionOf(text, "nome: {")]);
      const edit = await client.request<WorkspaceEdit>("textDocument/rename", { ...at(onboardingUri, ONBOARDING, "nome: {", 1), newName: "name" });
      const lines = edit.changes![onboardingUri].map((e) => e.range.start.line).sort((a, b) => a - b);
      assert.deepEqual(lines, [positionOf(text, "nome: {").line, positionOf(text, '["nome"').line]);
      const steps = await client.request<WorkspaceEdit>("textDocument/rename", { ...at(onboardingUri, ONBOARDING, 'id: "w1"', 6), newName: "espera" });
      assert.deepEqual(steps.changes![onboardingUri].map((e) => e.newText), ["espera"]);
    });

    it("refuses a state name with a dot, with a reason", async () => {
      await assert.rejects(client.request("textDocument/rename", { ...at(emailUri, EMAIL, "scoring: {", 1), newName: "a.b" }), /cannot contain/);
    });

    it("hovers a state with its transitions and reachability, a request with its model and prompt, a field with its ask", async () => {
      const state = await client.request<Hover>("textDocument/hover", at(emailUri, EMAIL, "scoring: {", 2));
      const stateText = (state.contents as { value: string }).value;
      assert.match(stateText, /Incoming/);
      assert.match(stateText, /Reachable: yes/);
      const request = (await client.request<Hover>("textDocument/hover", at(evalUri, EVAL, 'request: "scoreDraft"', 12))).contents as { value: string };
      assert.match(request.value, /judge/);
      assert.match(request.value, /Score this email/);
      const field = (await client.request<Hover>("textDocument/hover", at(onboardingUri, ONBOARDING, "nome: {", 1))).contents as { value: string };
      assert.match(field.value, /Pergunte o nome/);
      const flow = (await client.request<Hover>("textDocument/hover", at(onboardingUri, ONBOARDING, 'id: "retomar"', 6))).contents as { value: string };
      assert.match(flow.value, /silence/);
    });

    it("outlines machine → states, agent → requests, flow → steps", async () => {
      const tree = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: emailUri } });
      const byName = new Map(tree.map((s) => [s.name, s]));
      assert.deepEqual(byName.get("machine")?.children?.map((c) => c.name), ["drafting", "scoring", "done"]);
      assert.deepEqual(byName.get("agent")?.children?.map((c) => c.name), ["draftEmail", "scoreDraft"]);
      const flows = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: onboardingUri } });
      assert.deepEqual(flows.find((s) => s.name === "retomar")?.children?.map((c) => c.name), ["p1", "w1", "p2"]);
      for (const s of tree) {
        assert.ok(s.range.start.line <= s.selectionRange.start.line && s.selectionRange.end.line <= s.range.end.line, `${s.name}: selection inside range`);
      }
    });

    it("offers the analysis' quick fixes as preferred quickfix actions", async () => {
      const p = at(brokenUri, BROKEN, '"reviewing"', 3);
      const actions = await client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: brokenUri }, range: { start: p.position, end: p.position }, context: { diagnostics: [] } });
      assert.equal(actions.length, 1);
      assert.equal(actions[0].kind, "quickfix");
      assert.equal(actions[0].isPreferred, true);
      assert.equal(actions[0].diagnostics?.[0].code, "unknown-target");
      const edits = actions[0].edit!.changes![brokenUri];
      assert.deepEqual(edits.map((e) => e.newText), ["review"]);
      const field = at(onboardingUri, ONBOARDING, '"emprsa"', 2);
      const fieldFixes = await client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: onboardingUri }, range: { start: field.position, end: field.position }, context: { diagnostics: [] } });
      assert.deepEqual(fieldFixes.map((a) => a.isPreferred), [true, false]);
      assert.ok(fieldFixes.some((a) => /Declare field/.test(a.title)), "offers to declare the missing field");
      const refactorOnly = await client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: brokenUri }, range: { start: p.position, end: p.position }, context: { diagnostics: [], only: ["refactor"] } });
      assert.deepEqual(refactorOnly, []);
    });

    it("serves code lenses that carry the LensTarget to agentLens.runLens", async () => {
      const lenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: emailUri } });
      const titles = lenses.map((l) => l.command?.title);
      assert.ok(titles.includes("Explore paths") && titles.includes("Run seam"), titles.join());
      for (const lens of lenses) {
        assert.equal(lens.command?.command, "agentLens.runLens");
        assert.equal(lens.command?.arguments?.length, 1);
        assert.equal((lens.command?.arguments?.[0] as { file: string }).file, EMAIL);
      }
      const explore = lenses.find((l) => l.command?.title === "Explore paths")!;
      assert.equal((explore.command!.arguments![0] as { machineExport: string }).machineExport, "machine");
      const evalLenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: evalUri } });
      assert.deepEqual(evalLenses.map((l) => [l.command?.title, (l.command?.arguments?.[0] as { request: string }).request]), [["Run seam", "scoreDraft"]]);
      const flowLenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: onboardingUri } });
      assert.deepEqual(flowLenses.map((l) => (l.command?.arguments?.[0] as { flowId: string }).flowId), ["triagem", "retomar"]);
    });

    it("answers agentLens/graphs and agentLens/catalog", async () => {
      const graphs = await client.request<Array<{ kind: string; name: string; nodes: Array<{ label: string }> }>>("agentLens/graphs", { uri: emailUri });
      assert.deepEqual(graphs.map((g) => [g.kind, g.name, g.nodes.map((n) => n.label)]), [["machine", "machine", ["drafting", "scoring", "done"]]]);
      const catalog = await client.request<{ machines: Array<{ name: string; requests: string[]; line: number; uri: string }>; flows: Array<{ name: string }>; evalFiles: Array<{ uri: string }> }>("agentLens/catalog", {});
      const machine = catalog.machines.find((m) => m.name === "machine")!;
      assert.deepEqual(machine.requests, ["draftEmail", "scoreDraft"]);
      assert.equal(machine.line, positionOf(readFileSync(EMAIL, "utf8"), "machine = ").line);
      assert.deepEqual(catalog.machines.find((m) => m.name === "broken")?.requests, ["draftEmail"]);
      assert.deepEqual(catalog.flows.map((f) => f.name).sort(), ["retomar", "triagem"]);
      assert.deepEqual(catalog.evalFiles.map((e) => e.uri), [evalUri]);
    });
  });
  // Last of the nested suites, so it sees the logs of everything above.
  describe("afterwards", () => {
    it("logged no internal error while serving all of the above", () => {
      const errors = client.logs.filter((l) => / failed: |analysis error|uncaught|unhandled/.test(l));
      assert.deepEqual(errors, []);
    });
  });
});
