import assert from "node:assert/strict";
import { Renderer } from "../../client/media/render";
import type { ResultView } from "@agent-lens/protocol";
import { buildResultView } from "../../client/src/panel/view-model";
import { FakeElement, fakeDocument } from "./fakeDom";
import type { HarnessEvent } from "@agent-lens/protocol";
import { AGENT, EVAL, flowGraph, machineGraph, seamPayload, seamRun, turnPayload } from "./samples";

const HOSTILE = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;

function render(view: ResultView, recent: Parameters<Renderer["view"]>[1] = []) {
  const reveals: unknown[][] = [];
  const renderer = new Renderer(fakeDocument, { reveal: (...a) => reveals.push(a), rerun: () => reveals.push(["rerun"]), select: (id) => reveals.push(["select", id]) });
  return { root: renderer.view(view, recent) as FakeElement, reveals, renderer };
}

function fire(el: FakeElement, type: string, event: object = {}) {
  for (const l of el.listeners.get(type) ?? []) l({ preventDefault() {}, ...event });
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
    const data = { terminals: [{ states: ["drafting", "scoring", "done"], events: ["xstate.done.actor.0.(machine).drafting", "xstate.done.actor.0.(machine).scoring"], end: "done" }], reachedStates: ["drafting", "scoring", "done"], prunedByGuard: 0, hitPathCap: false };
    const view = buildResultView({ runId: 9, title: "Explore paths · machine", file: EVAL, graphs: [machineGraph], events: [{ type: "result", kind: "explore", data }] });
    assert.deepEqual(view.diagrams[0].visited, ["m.drafting", "m.scoring", "m.done"]);
    const { root } = render(view);
    const rows = root.find((e) => e.tag === "table" && e.attributes.get("class") === "terminals")!.find((e) => e.tag === "tbody")!.children as FakeElement[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].textContent, "1draftingscoringdonedone: drafting → done: scoringdone");
    assert.deepEqual(rows[0].byClass("event").map((e) => e.attributes.get("title")), ["xstate.done.actor.0.(machine).drafting", "xstate.done.actor.0.(machine).scoring"]);
    assert.match(root.textContent, /1 terminal path/);
  });

  it("a transition XState rejected is an error of the exploration, at the state's source, and the run is failed", () => {
    const message = "Invalid transition for '(machine).scoring': Child state 'nope' does not exist on '(machine)'";
    const data = { terminals: [{ states: ["drafting", "scoring"], events: ["xstate.done.actor.0.(machine).drafting"], end: "error" }], reachedStates: ["drafting", "scoring"], prunedByGuard: 0, hitPathCap: false, status: "error", errors: [{ state: "scoring", event: "xstate.done.actor.0.(machine).scoring", message }] };
    const view = buildResultView({ runId: 10, title: "Explore paths · machine", file: AGENT, subject: "explore paths", generated: { entry: "/tmp/g/explore.ts", origin: { file: AGENT, line: 2, column: 1 }, label: "explore paths" }, graphs: [machineGraph], events: [{ type: "result", kind: "explore", data }, { type: "end", file: "/tmp/g/explore.ts", status: "passed", durationMs: 1, summary: { passed: 1, failed: 0, skipped: 0 } }] });
    assert.equal(view.verdict.text, "explore paths ✗");
    assert.equal(view.errors.length, 1);
    assert.match(view.errors[0].message, /^From state "scoring" on done: scoring: Invalid transition/);
    assert.deepEqual(view.errors[0].location, { file: AGENT, line: 38, column: 5 }, "the state's own source");
    const { root } = render(view);
    assert.equal(root.byClass("rejected")[0].textContent, "1 transition rejected by XState");
    assert.doesNotMatch(root.textContent, /pruned/);
    assert.equal(root.find((e) => e.tag === "table" && e.attributes.get("class") === "terminals")!.byClass("status-error")[0].textContent, "error");
  });
});

describe("client: truthful headers, readable events, diagrams to read", () => {
  it("a lens on one seam of a failing file says \"seam ✓ · file ✗\"; a generated run names only the seam", () => {
    const events: HarnessEvent[] = [...seamRun(12).slice(0, -1), { type: "fail", test: "other", failure: { message: "boom" } }, { type: "end", file: EVAL, status: "failed", durationMs: 3, summary: { passed: 0, failed: 1, skipped: 0 } }];
    const { root } = render(buildResultView({ runId: 1, title: "Run seam · scoreDraft", file: EVAL, focus: { file: EVAL, line: 12 }, subject: "seam", events, graphs: [] }));
    const header = root.find((e) => e.tag === "header")!;
    assert.equal(header.byClass("verdict-subject")[0].textContent, "seam ✓");
    assert.equal(header.byClass("verdict-file")[0].textContent, "file ✗");
    assert.equal(root.attributes.get("data-status"), "passed");
    assert.equal(root.attributes.get("data-file-status"), "failed");
    const generated = render(buildResultView({ runId: 2, title: "Run seam · summarize", file: AGENT, subject: "seam", generated: { entry: "/tmp/g/seam.ts", origin: { file: AGENT, line: 3, column: 1 }, label: "keyless seam run" }, events: [{ type: "result", kind: "seam", data: { ...seamPayload, status: "error", error: { message: "Invalid transition" } } }, { type: "end", file: "/tmp/g/seam.ts", status: "passed", durationMs: 1, summary: { passed: 1, failed: 0, skipped: 0 } }], graphs: [] }));
    assert.equal(generated.root.byClass("verdict-subject")[0].textContent, "seam ✗");
    assert.equal(generated.root.byClass("verdict-file").length, 0);
  });

  it("a file that passed while a result ended in error says so in the header and beside the test that produced it", () => {
    const errored = { type: "result", kind: "agent", test: "runs", data: { status: "error", error: { message: "executor threw" }, path: [], events: [] } } satisfies HarnessEvent;
    const events: HarnessEvent[] = [errored, { type: "test-end", test: "runs", status: "passed", durationMs: 2 }, { type: "test-end", test: "other", status: "passed", durationMs: 2 }, { type: "end", file: EVAL, status: "passed", durationMs: 3, summary: { passed: 2, failed: 0, skipped: 0 } }];
    const view = buildResultView({ runId: 3, title: "Eval · x", file: EVAL, events, graphs: [] });
    const { root } = render(view);
    const header = root.find((e) => e.tag === "header")!;
    assert.equal(header.byClass("verdict-only")[0].textContent, "passed");
    assert.equal(header.byClass("errored")[0].textContent, "1 result ended in error");
    const rows = root.byClass("test").map((li) => [li.byClass("status")[0].textContent, li.byClass("errored")[0]?.textContent ?? ""]);
    assert.deepEqual(rows, [["passed", "1 result ended in error"], ["passed", ""]], "no green \"passed\" without its note");
  });

  it("transition events read as \"done: drafting\" with the raw XState id on hover", () => {
    const data = { ...seamPayload, before: { statePath: ["drafting"], events: [{ type: "@xstate.init", data: { input: {} } }, { type: "xstate.done.actor", data: { actorId: "0.(machine).drafting" } }] }, after: { statePath: ["drafting"], events: [{ type: "REVISE" }] } };
    const { root } = render(buildResultView({ runId: 3, title: "t", file: EVAL, events: [{ type: "result", kind: "seam", data }], graphs: [] }));
    const events = root.byClass("event");
    assert.deepEqual(events.map((e) => e.textContent), ["start", "done: drafting", "REVISE"]);
    assert.equal(events[1].attributes.get("title"), "xstate.done.actor (0.(machine).drafting)");
  });

  it("a diagram fits its natural size, zooms with its buttons, and a node click after a drag is not a reveal", () => {
    const { root, reveals } = render(buildResultView({ runId: 4, title: "t", file: EVAL, focus: { file: EVAL, line: 12 }, events: seamRun(12), graphs: [machineGraph] }));
    const svg = root.find((e) => e.tag === "svg")!;
    const [, , w, h] = svg.attributes.get("viewBox")!.split(" ").map(Number);
    assert.equal(Number(svg.attributes.get("width")), Math.ceil(w));
    assert.equal(Number(svg.attributes.get("height")), Math.ceil(h));
    const zoomIn = root.byClass("zoom").find((b) => b.attributes.get("title") === "Zoom in")!;
    zoomIn.click();
    assert.equal(root.byClass("zoom-level")[0].textContent, "125%");
    assert.equal(Number(svg.attributes.get("width")), Math.ceil(w * 1.25), "zoom scales the drawing's box");
    assert.equal(Number(svg.attributes.get("viewBox")!.split(" ")[2]), w, "which still holds the whole drawing");
    assert.match(svg.attributes.get("class")!, /zoomed/);
    const node = root.all().find((e) => e.attributes.get("data-node") === "m.done")!;
    fire(svg, "pointerdown", { clientX: 0, clientY: 0 });
    fire(svg, "pointermove", { clientX: 40, clientY: 0 });
    const before = reveals.length;
    node.click();
    assert.equal(reveals.length, before, "the click that ends a drag does not open the source");
    root.byClass("zoom").find((b) => b.attributes.get("title") === "Show the whole diagram")!.click();
    assert.equal(root.byClass("zoom-level")[0].textContent, "100%");
    // the seam's badge is drawn as text inside the drawing
    assert.deepEqual(root.byClass("seam-label").map((e) => e.textContent), ["seam"]);
  });

  it("Show diagram draws a machine or flow with nothing run, steps clickable to their source", () => {
    const reveals: unknown[][] = [];
    const renderer = new Renderer(fakeDocument, { reveal: (...a) => reveals.push(a), rerun: () => undefined });
    const root = renderer.diagramView({ runId: 5, title: "Flow · triagem", file: "/w/flows.ts", line: 10, diagrams: [{ graph: flowGraph, visited: [] }] }) as FakeElement;
    assert.equal(root.attributes.get("data-status"), "diagram");
    assert.equal(root.byClass("visited").length, 0);
    assert.equal(root.byClass("rerun").length, 0, "nothing to run again");
    root.all().find((e) => e.attributes.get("data-node") === "triagem:tchau")!.click();
    assert.deepEqual(reveals.at(-1), ["/w/flows.ts", 11, 4, false]);
  });

  it("other recent results are one pick away", () => {
    const { root, reveals } = render(buildResultView({ runId: 7, title: "t", file: EVAL, events: seamRun(), graphs: [] }), [{ runId: 7, title: "t", status: "passed" }, { runId: 6, title: "Run seam · draftEmail", status: "failed" }]);
    const select = root.byClass("recent")[0];
    assert.deepEqual(select.children.slice(1).map((o) => (o as FakeElement).textContent), ["Run seam · draftEmail — failed"]);
    (select as unknown as { value: string }).value = "6";
    fire(select, "change");
    assert.deepEqual(reveals.at(-1), ["select", 6]);
  });
});
