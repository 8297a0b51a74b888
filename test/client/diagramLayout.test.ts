import assert from "node:assert/strict";
import type { AgentGraph } from "../../server/src/analysis/api";
import * as path from "node:path";
import { createWorkspace } from "../../server/src/analysis";
import { labelBox, layoutGraph, type Box, type Layout, type Measure } from "../../client/media/diagram-layout";
import { crosses, overlaps } from "../../client/media/edge-labels";
import { Zoom } from "../../client/media/viewport";
import { flowGraph, machineGraph } from "./samples";

const range = { start: 0, end: 0, startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };

describe("client: diagram layout (dagre)", () => {
  it("places every state without overlaps and routes every edge", () => {
    const layout = layoutGraph(machineGraph);
    assert.equal(layout.nodes.length, 3);
    for (const a of layout.nodes) for (const b of layout.nodes) {
      if (a === b) continue;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      assert.ok(apart, `${a.id} overlaps ${b.id}`);
    }
    assert.equal(layout.edges.length, 2);
    for (const e of layout.edges) assert.ok(e.points.length >= 2);
    // top to bottom: drafting above scoring above done
    const y = (id: string) => layout.nodes.find((n) => n.id === id)!.y;
    assert.ok(y("m.drafting") < y("m.scoring") && y("m.scoring") < y("m.done"));
    for (const n of layout.nodes) assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= layout.width && n.y + n.height <= layout.height);
  });

  it("draws children inside their compound state, edges into a compound state go to its initial child", () => {
    const g: AgentGraph = {
      kind: "machine", id: "m", name: "m",
      nodes: [
        { id: "idle", path: "idle", label: "idle", initial: true, range, file: "/f" },
        { id: "work", path: "work", label: "work", type: "compound", range, file: "/f" },
        { id: "work.a", path: "work.a", label: "a", parent: "work", initial: true, range, file: "/f" },
        { id: "work.b", path: "work.b", label: "b", parent: "work", range, file: "/f" },
      ],
      edges: [{ source: "idle", target: "work", label: "GO" }, { source: "work.a", target: "work.b", label: "NEXT" }],
    };
    const layout = layoutGraph(g);
    const box = (id: string) => layout.nodes.find((n) => n.id === id)!;
    const work = box("work");
    assert.ok(work.compound);
    for (const id of ["work.a", "work.b"]) {
      const c = box(id);
      assert.ok(c.x >= work.x && c.y >= work.y && c.x + c.width <= work.x + work.width && c.y + c.height <= work.y + work.height, `${id} inside work`);
    }
    const go = layout.edges.find((e) => e.label === "GO")!;
    assert.ok(go.points.length >= 2 && go.labelAt);
  });

  it("never clips a label: node boxes hold their measured text, edge labels and the seam badge lie inside the drawing", () => {
    const wide: Measure = (text, kind) => text.length * (kind === "node" ? 11 : 10);
    const g: AgentGraph = {
      ...machineGraph,
      nodes: machineGraph.nodes.map((n) => ({ ...n, label: `${n.label}WithAVeryLongStateName` })),
      edges: machineGraph.edges.map((e) => ({ ...e, label: `${e.label} and a long event label` })),
    };
    const layout = layoutGraph(g, { measure: wide, badges: new Map([["m.drafting", "seam"]]) });
    for (const n of layout.nodes) assert.ok(wide(n.label, "node") + 16 <= n.width, `${n.label} fits its box`);
    for (const e of layout.edges) {
      assert.ok(e.labelAt, "labelled");
      assert.ok(e.labelAt!.x - e.labelWidth / 2 >= 0 && e.labelAt!.x + e.labelWidth / 2 <= layout.width, `edge label "${e.label}" inside the width`);
    }
    const top = layout.nodes.find((n) => n.id === "m.drafting")!;
    const badge = top.badge!.box;
    assert.ok(badge.x0 >= top.x && badge.x1 <= top.x + top.width && badge.y0 >= top.y && badge.y1 <= top.y + top.height, "the seam badge is inside its state's box");
    assert.ok(top.textX + wide(top.label, "node") / 2 <= badge.x0, "the state's name ends before its badge");
  });

  it("lays a short flow out as a row and a long one top to bottom (it has to fit a panel)", () => {
    const short = layoutGraph(flowGraph);
    assert.ok(short.width > short.height);
    const steps = Array.from({ length: 8 }, (_, i) => `s${i}`);
    const long = layoutGraph({
      ...flowGraph,
      nodes: steps.map((id) => ({ id, path: id, label: id, type: "step" as const, range, file: "/f" })),
      edges: steps.slice(1).map((id, i) => ({ source: steps[i], target: id, label: "next" })),
    });
    assert.ok(long.height > long.width);
  });
});

describe("client: diagram zoom", () => {
  it("scales the drawing's box, whose viewBox always holds the whole drawing, between 100% and 8x", () => {
    const z = new Zoom(800, 400);
    assert.deepEqual(z.size, { width: 800, height: 400 });
    z.by(2);
    assert.deepEqual(z.size, { width: 1600, height: 800 }, "zoomed in, the box grows: nothing is cut");
    assert.equal(z.viewBox, "0 0 800 400");
    z.by(0.1);
    assert.equal(z.level, 1, "never smaller than 100%");
    z.by(100);
    assert.equal(z.level, 8, "at most 8x");
    z.fit();
    assert.deepEqual(z.size, { width: 800, height: 400 });
    // the point 300 px into a 800 px drawing, 100 px into the visible area, stays there at 2x
    assert.equal(Zoom.keep(300, 800, 1600, 100), 500);
  });
});

/** Where a drawn thing is in the way of another: edges through labels, badges or node names. */
function obstructions(layout: Layout, measure: Measure): string[] {
  const out: string[] = [];
  const labels: Array<[string, Box]> = [
    ...layout.edges.filter((e) => e.labelAt).map((e): [string, Box] => [`label "${e.label}"`, labelBox(e)]),
    ...layout.nodes.flatMap((n): Array<[string, Box]> => (n.badge ? [[`badge of ${n.label}`, n.badge.box]] : [])),
    ...layout.nodes.filter((n) => !n.compound).map((n): [string, Box] => [`name of ${n.label}`, { x0: n.textX - measure(n.label, "node") / 2, x1: n.textX + measure(n.label, "node") / 2, y0: n.y + n.height / 2 - 8, y1: n.y + n.height / 2 + 6 }]),
  ];
  for (const e of layout.edges) for (const [what, box] of labels) if (crosses(e.points, box)) out.push(`edge ${e.source} → ${e.target} through ${what}`);
  for (const e of layout.edges) {
    if (!e.labelAt) continue;
    for (const n of layout.nodes) if (!n.compound && overlaps(labelBox(e), { x0: n.x, y0: n.y, x1: n.x + n.width, y1: n.y + n.height })) out.push(`label "${e.label}" on ${n.label}`);
  }
  return out;
}

describe("client: diagrams of the examples have nothing in anything's way", () => {
  const examples = path.resolve(__dirname, "../../examples");
  const ws = createWorkspace({ roots: [examples] });
  const files = ["stately/email-agent.ts", "stately/mistakes.ts", "stately/support-triage.ts", "falai/triage-agent.ts", "falai/mistakes.ts"];
  for (const file of files) {
    it(`${file}: no edge runs through a label, a badge or a state's name; no label lies on a state`, () => {
      const graphs = ws.analyze(path.join(examples, file)).graphs;
      assert.ok(graphs.length);
      for (const graph of graphs) {
        // every state badged, as the worst case for the badge's room
        const layout = layoutGraph(graph, { badges: new Map(graph.nodes.map((n) => [n.id, "seam"])) });
        assert.deepEqual(obstructions(layout, (t, k) => t.length * (k === "node" ? 7.5 : 6.8)), [], `${graph.kind} ${graph.name}`);
      }
    });
  }
});
