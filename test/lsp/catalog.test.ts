// The catalog queries over the real server (stdio): "Show diagram" lenses for a client that draws
// diagrams, the diagram of a machine or flow, of a call and of an eval file, and the eval files' calls and
// flows in agentLens/catalog — all typed by @agent-lens/protocol, so these calls are checked by tsc too.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeLens } from "vscode-languageserver-protocol";
import { buildCoverageModel } from "../../server/src/cli/coverage/static-model";
import { CatalogRequest, CoverageModelRequest, DiagramRequest, EvalGraphsRequest, ShowDiagramCommand, SiteGraphsRequest, type DiagramTarget, type LensTarget } from "@agent-lens/protocol";
import { TestClient, positionOf, uriOf } from "./support/client";
import { copyWorkspace } from "./support/fixtures";

describe("lsp: catalog queries and Show diagram lenses", function () {
  this.timeout(60_000);
  let ws: ReturnType<typeof copyWorkspace>;
  let client: TestClient;
  const file = (name: string) => join(ws.root, "src", name);

  before(async () => {
    ws = copyWorkspace();
    // An eval file whose turn runs the agent of onboarding.ts.
    writeFileSync(file("onboarding.test.ts"), 'import { agent } from "./onboarding";\nawait agent.turn({ sessionId: "s1", message: "oi" });\n');
    client = await TestClient.start({ folders: [ws.root], settings: { diagnostics: { debounceMs: 0 } }, initializationOptions: { clientCommands: [ShowDiagramCommand] } });
    await client.waitForReady();
  });
  after(async () => {
    await client?.stop();
    ws?.dispose();
  });

  const lenses = (name: string) => client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: uriOf(file(name)) } });
  const diagramArg = (l: CodeLens) => l.command!.arguments![0] as DiagramTarget;

  it("puts Show diagram beside each machine's Explore paths lens and each flow's own Run turns lens, nowhere else", async () => {
    const email = await lenses("email.ts");
    const titles = email.map((l) => l.command?.title);
    const explore = titles.indexOf("Explore paths");
    assert.equal(titles[explore + 1], "Show diagram", titles.join());
    assert.equal(titles.filter((t) => t === "Show diagram").length, 1, "none beside Run seam");
    const shown = email[explore + 1]!;
    assert.equal(shown.command?.command, ShowDiagramCommand);
    assert.deepEqual(shown.range, email[explore]!.range);
    const machineId = (email[explore]!.command!.arguments![0] as LensTarget).machineId;
    assert.deepEqual(diagramArg(shown), { kind: "machine", file: file("email.ts"), line: positionOf(readFileSync(file("email.ts"), "utf8"), "createMachine").line, machineId });

    const flows = await lenses("onboarding.ts");
    assert.deepEqual(flows.map((l) => l.command?.title), ["Run turns", "Show diagram", "Run turns", "Show diagram"]);
    assert.deepEqual(flows.filter((l) => l.command?.command === ShowDiagramCommand).map((l) => [diagramArg(l).kind, diagramArg(l).flowId, diagramArg(l).line]), [
      ["flow", "triagem", positionOf(readFileSync(file("onboarding.ts"), "utf8"), "f.flow(").line],
      ["flow", "retomar", positionOf(readFileSync(file("onboarding.ts"), "utf8"), "f.flow(", 0, 1).line],
    ]);
    assert.deepEqual((await lenses("onboarding.test.ts")).map((l) => l.command?.title), ["Run turns"], "a turn call is not a definition");
  });

  it("draws what a Show diagram lens stands for (agentLens/diagram), a machine by its id alone", async () => {
    const [machineLens] = (await lenses("email.ts")).filter((l) => l.command?.command === ShowDiagramCommand);
    const m = diagramArg(machineLens!);
    const byId = await client.connection.sendRequest(DiagramRequest, { kind: "machine", machineId: m.machineId! });
    assert.deepEqual(byId?.nodes.map((n) => n.label), ["drafting", "scoring", "done"]);
    const [, retomar] = (await lenses("onboarding.ts")).filter((l) => l.command?.command === ShowDiagramCommand);
    const f = diagramArg(retomar!);
    const flow = await client.connection.sendRequest(DiagramRequest, { kind: "flow", uri: uriOf(f.file), flowId: f.flowId!, line: f.line });
    assert.deepEqual(flow?.nodes.map((n) => n.label), ["p1", "w1", "p2", "end"]);
    assert.equal(await client.connection.sendRequest(DiagramRequest, { kind: "machine", machineId: `${file("email.ts")}#machine:nothing` }), null);
  });

  it("answers the diagrams of a call (agentLens/siteGraphs) and of an eval file (agentLens/evalGraphs)", async () => {
    const turn = await client.connection.sendRequest(SiteGraphsRequest, { uri: uriOf(file("onboarding.test.ts")), line: 2 });
    assert.deepEqual(turn.map((g) => [g.kind, g.name, g.nodes[0]!.file]), [["flow", "triagem", file("onboarding.ts")], ["flow", "retomar", file("onboarding.ts")]]);
    const seam = await client.connection.sendRequest(EvalGraphsRequest, { uri: uriOf(file("email.eval.ts")) });
    assert.deepEqual(seam.map((g) => [g.kind, g.name]), [["machine", "machine"]]);
    assert.deepEqual(await client.connection.sendRequest(SiteGraphsRequest, { uri: uriOf(file("email.eval.ts")), line: 1 }), []);
  });

  it("lists each eval file's calls and the flows they run in agentLens/catalog", async () => {
    const catalog = await client.connection.sendRequest(CatalogRequest, {});
    const onboarding = catalog.evalFiles.find((e) => e.uri === uriOf(file("onboarding.test.ts")))!;
    assert.deepEqual(onboarding.sites.map((s) => [s.kind, s.line, s.flows?.length]), [["run-turns", 2, 2]]);
    assert.deepEqual(onboarding.flows.map((f) => [f.name, f.uri]), [["triagem", uriOf(file("onboarding.ts"))], ["retomar", uriOf(file("onboarding.ts"))]]);
    const email = catalog.evalFiles.find((e) => e.uri === uriOf(file("email.eval.ts")))!;
    const machine = catalog.machines.find((m) => m.name === "machine")!;
    assert.deepEqual(email.sites.map((s) => [s.kind, s.request, s.machineId]), [["run-seam", "scoreDraft", machine.id]]);
    assert.deepEqual(email.flows, []);
  });

  it("answers the coverage model of eval files (agentLens/coverageModel) from its own analyses, as the CLI builds it", async () => {
    const evalFiles = [file("onboarding.test.ts"), file("email.eval.ts")];
    const model = await client.connection.sendRequest(CoverageModelRequest, { uris: evalFiles.map(uriOf) });
    assert.deepEqual(Object.keys(model.evalFiles).sort(), [...evalFiles].sort());
    assert.deepEqual(model.graphs.map((g) => `${g.kind} ${g.name}`).sort(), ["flow retomar", "flow triagem", "machine machine"]);
    assert.deepEqual(model.evalFiles[file("onboarding.test.ts")]!.sites.map((s) => [s.line, s.flows?.length]), [[2, 2]]);
    assert.deepEqual(model, JSON.parse(JSON.stringify(buildCoverageModel([ws.root], evalFiles).model)), "the model as the CLI builds it (as JSON)");
    const none = await client.connection.sendRequest(CoverageModelRequest, { uris: ["untitled:nothing", 7 as unknown as string] });
    assert.deepEqual(none.graphs, []);
  });
});
