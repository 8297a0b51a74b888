// Catalog queries: what an eval file's calls run and which diagrams belong to a run, answered by the
// analysis (the agent a turn uses, followed through factories, re-exports and `.js` specifiers), never by
// matching ids across the workspace; one machine or flow for "Show diagram", twins told apart by line.
import assert from "node:assert/strict";
import { createWorkspace } from "../../server/src/analysis";
import { diagramOf, evalGraphs, evalSitesOf, flowsOf, flowsUsedBy, machinesOf, siteGraphs, type CatalogSource } from "../../server/src/analysis/catalog";

const ROOT = "/w";
const files: Record<string, string> = {
  // The agent the eval builds comes from a factory in triage-agent.ts, whose flows live in flows.ts (re-exported).
  "/w/falai/shared/flows.ts": [
    'import { falai } from "@falai/agent";',
    'export const f = falai().fields({ nome: { type: "string" } });',
    'export const triagem = f.flow({ id: "triagem", on: [{ message: ["oi"] }], steps: [{ id: "quem", collect: ["nome"] }] });',
    'export const retomar = f.flow({ id: "retomar", on: [{ silence: "24h" }], steps: [{ id: "p1", prompt: "Retome." }] });',
    "",
  ].join("\n"),
  "/w/falai/triage-agent.ts": [
    'import { f, triagem, retomar } from "./shared/flows.js";',
    'export * from "./shared/flows.js";',
    "export function createTriageAgent() {",
    '  return f.agent({ name: "Ana", flows: [triagem, retomar] });',
    "}",
    "",
  ].join("\n"),
  "/w/falai/triage-agent.test.ts": [
    'import { createTriageAgent } from "./triage-agent";',
    "const agent = createTriageAgent();",
    'await agent.turn({ sessionId: "s1", message: "oi" });',
    "",
  ].join("\n"),
  // Another eval with its own flow of the same id ("retomar"), never imported by the one above.
  "/w/falai/replay.test.ts": [
    'import { falai } from "@falai/agent";',
    'const f = falai().fields({ nome: { type: "string" } });',
    'const flows = [f.flow({ id: "boas-vindas", on: [{ message: [] }], steps: [{ id: "nome", collect: ["nome"] }] }), f.flow({ id: "retomar", on: [{ silence: "24h" }], steps: [{ id: "p1" }] })];',
    'await f.agent({ name: "Ana", flows }).turn({ sessionId: "s1", message: "oi" });',
    "",
  ].join("\n"),
  // Two flows sharing an id in one file (a duplicate-flow mistake): "Show diagram" on each draws its own.
  "/w/falai/twins.ts": [
    'import { falai } from "@falai/agent";',
    'const f = falai().fields({});',
    'export const a = f.flow({ id: "cadastro", on: [{ message: ["a"] }], steps: [{ id: "um" }] });',
    "",
    'export const b = f.flow({ id: "cadastro", on: [{ message: ["b"] }], steps: [{ id: "dois" }, { id: "tres" }] });',
    "",
  ].join("\n"),
  "/w/stately/email.ts": [
    'import { setupAgent } from "@statelyai/agent";',
    'export const agent = setupAgent({ requests: { draftEmail: { model: "writer", prompt: "p" }, scoreDraft: { model: "judge", prompt: "q" } } });',
    "export const machine = agent.createMachine({",
    '  initial: "drafting",',
    '  states: { drafting: { invoke: { src: "draftEmail", onDone: "scoring" } }, scoring: { invoke: { src: "scoreDraft", onDone: "done" } }, done: { type: "final" } },',
    "});",
    "",
  ].join("\n"),
  "/w/stately/email.eval.ts": [
    'import { runSeam } from "@statelyai/agent/testing";',
    'import { machine } from "./email";',
    'await runSeam(machine, { scripts: { draftEmail: ["d"], scoreDraft: [{ score: 4 }] }, seam: { request: "scoreDraft" } });',
    "",
  ].join("\n"),
};

function setup() {
  const ws = createWorkspace({ roots: [ROOT], readFile: (f) => files[f] });
  const source: CatalogSource = { analysisOf: (f) => ws.analyze(f), symbol: (id) => ws.symbol(id) };
  return { ws, source, a: (f: string) => ws.analyze(f) };
}
const lineOf = (file: string, text: string) => files[file]!.split("\n").findIndex((l) => l.includes(text));

describe("analysis: catalog queries", () => {
  it("a turn call's diagrams are the flows of the agent it uses, not another file's flow of the same id", () => {
    const { source, a } = setup();
    const evalFile = a("/w/falai/triage-agent.test.ts");
    const sites = evalSitesOf(evalFile);
    assert.deepEqual(sites.map((s) => [s.kind, s.line]), [["run-turns", 3]]);
    const graphs = siteGraphs(evalFile, 3, source);
    assert.deepEqual(graphs.map((g) => [g.name, g.nodes[0]!.file]), [["triagem", "/w/falai/shared/flows.ts"], ["retomar", "/w/falai/shared/flows.ts"]]);
    const replay = siteGraphs(a("/w/falai/replay.test.ts"), 4, source);
    assert.deepEqual(replay.map((g) => [g.name, g.nodes[0]!.file]), [["boas-vindas", "/w/falai/replay.test.ts"], ["retomar", "/w/falai/replay.test.ts"]]);
    assert.deepEqual(siteGraphs(evalFile, 1, source), [], "no call on that line");
  });

  it("the flows an eval file uses, by the agent its calls run (the catalog's answer to 'which evals use this flow')", () => {
    const { source, a } = setup();
    assert.deepEqual(flowsUsedBy(a("/w/falai/triage-agent.test.ts"), source).map((f) => `${f.file}#${f.name}`), ["/w/falai/shared/flows.ts#triagem", "/w/falai/shared/flows.ts#retomar"]);
    assert.deepEqual(flowsUsedBy(a("/w/falai/replay.test.ts"), source).map((f) => `${f.file}#${f.name}`), ["/w/falai/replay.test.ts#boas-vindas", "/w/falai/replay.test.ts#retomar"]);
  });

  it("a runSeam call names its machine and request; its diagram is that machine, carrying its own range", () => {
    const { source, a } = setup();
    const evalFile = a("/w/stately/email.eval.ts");
    const [site] = evalSitesOf(evalFile);
    assert.equal(site!.kind, "run-seam");
    assert.equal(site!.request, "scoreDraft");
    assert.equal(site!.line, 3);
    const [graph, ...rest] = evalGraphs(evalFile, source);
    assert.equal(rest.length, 0);
    assert.equal(graph!.id, site!.machineId);
    assert.deepEqual(graph!.nodes.map((n) => n.label), ["drafting", "scoring", "done"]);
    assert.equal(graph!.range?.startLine, lineOf("/w/stately/email.ts", "agent.createMachine"));
    assert.deepEqual(machinesOf(a("/w/stately/email.ts")).map((m) => [m.name, m.exportName, m.requests]), [["machine", "machine", ["draftEmail", "scoreDraft"]]]);
  });

  it("a machine's diagram by its id, found through the file that uses it when the id is not indexed yet", () => {
    const { source, a, ws } = setup();
    const evalFile = a("/w/stately/email.eval.ts");
    const id = evalSitesOf(evalFile)[0]!.machineId!;
    assert.equal(ws.symbol(id), undefined, "email.ts itself was never analyzed");
    assert.equal(diagramOf({ kind: "machine", machineId: id }, source), undefined, "nothing to go by");
    assert.equal(diagramOf({ kind: "machine", machineId: id, near: evalFile }, source)?.name, "machine");
  });

  it("of two flows sharing an id, Show diagram draws the one whose definition spans the lens's line", () => {
    const { source, a } = setup();
    const twins = a("/w/falai/twins.ts");
    assert.deepEqual(flowsOf(twins).map((f) => f.name), ["cadastro", "cadastro"]);
    const first = diagramOf({ kind: "flow", analysis: twins, flowId: "cadastro", line: lineOf("/w/falai/twins.ts", "export const a") }, source);
    const second = diagramOf({ kind: "flow", analysis: twins, flowId: "cadastro", line: lineOf("/w/falai/twins.ts", "export const b") }, source);
    assert.deepEqual(first?.nodes.filter((n) => n.type === "step").map((n) => n.label), ["um"]);
    assert.deepEqual(second?.nodes.filter((n) => n.type === "step").map((n) => n.label), ["dois", "tres"]);
    assert.notEqual(first?.id, second?.id);
  });
});
