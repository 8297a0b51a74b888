import assert from "node:assert/strict";
import { Renderer } from "../../client/media/render";
import type { ResultView } from "../../client/src/panel/protocol";
import { buildResultView } from "../../client/src/panel/viewModel";
import { FakeElement, fakeDocument } from "./fakeDom";
import { EVAL, machineGraph, seamPayload, seamRun, turnPayload } from "./samples";

const HOSTILE = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;

function render(view: ResultView) {
  const reveals: unknown[][] = [];
  const renderer = new Renderer(fakeDocument, { reveal: (...a) => reveals.push(a), rerun: () => reveals.push(["rerun"]) });
  return { root: renderer.view(view) as FakeElement, reveals };
}

describe("client: results panel renderer", () => {
  it("draws a seam run: output, calls with their sources, the path split at the seam, the final output", () => {
    const view = buildResultView({ runId: 1, title: "Run seam · scoreDraft", file: EVAL, focus: { file: EVAL, line: 12 }, events: seamRun(12), graphs: [machineGraph] });
    const { root } = render(view);
    assert.equal(root.byClass("seam-output")[0].textContent, '{\n  "score": 4\n}');
    const rows = root.find((e) => e.tag === "table" && e.attributes.get("class") === "calls")!.find((e) => e.tag === "tbody")!.children as FakeElement[];
    assert.deepEqual(rows.map((r) => r.textContent), ["1draftEmailwriterdraftEmailscript", "2scoreDraftjudgescoreDraftscript"]);
    const path = root.byClass("path")[0].children.map((c) => (c as FakeElement).textContent);
    assert.deepEqual(path, ["drafting", "scoring", "⟂ seam: scoreDraft", "done"]);
    assert.ok(root.byClass("status-passed").length >= 1);
    // the diagram: three state nodes, the visited ones highlighted, the seam marked
    const nodes = root.all().filter((e) => e.tag === "g" && e.attributes.has("data-node"));
    assert.equal(nodes.length, 3);
    assert.deepEqual(nodes.filter((n) => /\bvisited\b/.test(n.attributes.get("class")!)).length, 3);
    assert.equal(nodes.find((n) => /\bseam\b/.test(n.attributes.get("class")!))?.attributes.get("data-node"), "m.scoring");
  });

  it("renders every user-provided string as text, never as markup", () => {
    const created = fakeDocument.created.length;
    const view = buildResultView({
      runId: 2, title: HOSTILE, file: EVAL,
      events: [
        { type: "result", kind: "seam", callSite: { file: EVAL, line: 1, column: 1 }, data: { ...seamPayload, request: HOSTILE, seamOutput: HOSTILE, calls: [{ name: HOSTILE, key: HOSTILE, model: HOSTILE, source: "script", seam: true }], before: { statePath: [HOSTILE], events: [] }, after: { statePath: [], events: [] } } },
        { type: "result", kind: "turn", data: { ...turnPayload, messages: [{ key: HOSTILE, text: HOSTILE }], input: { sessionId: "s", message: HOSTILE, id: HOSTILE } } },
        { type: "fail", failure: { message: HOSTILE, code: HOSTILE } },
        { type: "console", stream: "stderr", text: HOSTILE },
      ],
      graphs: [{ ...machineGraph, name: HOSTILE, nodes: machineGraph.nodes.map((n) => ({ ...n, label: HOSTILE })) }],
    });
    const { root } = render(view);
    const tags = new Set(fakeDocument.created.slice(created).map((e) => e.tag));
    assert.ok(!tags.has("img") && !tags.has("script"), `created ${[...tags].join(",")}`);
    const texts = root.texts();
    assert.ok(texts.filter((t) => t.includes(HOSTILE)).length >= 10, "the hostile strings are there, verbatim, as text");
    for (const e of root.all()) for (const [name] of e.attributes) assert.doesNotMatch(name, /^on/i);
  });

  it("draws turns as a timeline: input, llmCalls, message keys and kinds, outcomes, schedule, runs started, ended and skipped, session", () => {
    const view = buildResultView({ runId: 3, title: "Run turns", file: EVAL, events: [{ type: "result", kind: "turn", data: turnPayload }], graphs: [] });
    const { root } = render(view);
    const turn = root.byClass("turn")[0];
    const text = turn.textContent;
    assert.match(text, /Turn 1/);
    assert.match(text, /oi, sou a Ana, quero saber como funciona/);
    assert.match(text, /llmCalls 2/);
    assert.match(text, /triagem#m1:quem:1/);
    assert.match(text, /Oi Ana! De qual empresa você fala\?/);
    assert.match(text, /silence:retomar:s1:1789898400000/);
    assert.match(text, /2026-09-21T10:00:00.000Z/);
    assert.match(text, /Flows started: triagem/);
    assert.match(text, /"nome": "Ana"/);
    assert.match(text, /triagem#m1:oi:1 verbatimOi!/);
    assert.match(text, /after 3000 ms/);
    assert.match(text, /not-in-enumtamanho · The value is not one of/);
    assert.match(text, /1 call/);
    assert.match(text, /Runs ended: boas \(end\)/);
    assert.match(text, /Not started: pediu_humano \(already-claimed\)/);
  });

  it("locations and diagram nodes reveal their source; errors name the scripts key to add", () => {
    const view = buildResultView({
      runId: 4, title: "t", file: EVAL, graphs: [machineGraph],
      events: [{ type: "fail", failure: { message: 'queue "scoreDraft" ran dry', code: "seam-script-exhausted", location: { file: EVAL, line: 7, column: 3 } } }],
    });
    const { root, reveals } = render(view);
    const loc = root.byClass("error-card")[0].byClass("loc")[0];
    assert.equal(loc.textContent, "email.eval.ts:7");
    loc.click();
    assert.deepEqual(reveals.at(-1), [EVAL, 7, 3, true]);
    assert.equal(root.byClass("fix")[0].byClass("key")[0].textContent, "scoreDraft");
    const node = root.all().find((e) => e.attributes.get("data-node") === "m.done")!;
    node.click();
    assert.deepEqual(reveals.at(-1), [machineGraph.nodes[2].file, 44, 4, false]);
  });
});

describe("client: explore paths in the panel", () => {
  it("lists each terminal path with its events and how it ended, and marks the states on the diagram", () => {
    const data = { terminals: [{ states: ["drafting", "scoring", "done"], events: ["xstate.done.actor.0", "xstate.done.actor.1"], end: "done" }], reachedStates: ["drafting", "scoring", "done"], prunedByGuard: 0, hitPathCap: false };
    const view = buildResultView({ runId: 9, title: "Explore paths · machine", file: EVAL, graphs: [machineGraph], events: [{ type: "result", kind: "explore", data }] });
    assert.deepEqual(view.diagrams[0].visited, ["m.drafting", "m.scoring", "m.done"]);
    const { root } = render(view);
    const rows = root.find((e) => e.tag === "table" && e.attributes.get("class") === "terminals")!.find((e) => e.tag === "tbody")!.children as FakeElement[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].textContent, "1draftingscoringdonexstate.done.actor.0 → xstate.done.actor.1done");
    assert.match(root.textContent, /1 terminal path/);
  });
});
