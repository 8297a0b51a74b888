import assert from "node:assert/strict";
import type { AgentGraph } from "../../server/src/analysis/api";
import { badgeBox, layoutGraph, type Measure } from "../../client/media/diagramLayout";
import { Viewport } from "../../client/media/viewport";
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
    const badge = badgeBox(top, wide("seam", "badge"));
    assert.ok(badge.y0 >= 0 && badge.x1 <= layout.width, "the seam badge is inside the drawing");
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

describe("client: diagram zoom and pan", () => {
  it("starts on the whole diagram, zooms in around a point, pans within the diagram, fits again", () => {
    const v = new Viewport(800, 400);
    assert.equal(v.viewBox, "0 0 800 400");
    v.zoomBy(2, 600, 300);
    assert.equal(v.zoom, 2);
    assert.deepEqual(v.box, { x: 300, y: 150, w: 400, h: 200 }, "the point under the cursor stays put");
    v.panBy(1000, -1000);
    assert.deepEqual(v.box, { x: 400, y: 0, w: 400, h: 200 }, "never past the diagram's edges");
    v.zoomBy(0.1);
    assert.equal(v.zoom, 1, "never smaller than the whole");
    v.zoomBy(100);
    assert.equal(v.zoom, 8, "at most 8x");
    v.fit();
    assert.equal(v.viewBox, "0 0 800 400");
  });
});
