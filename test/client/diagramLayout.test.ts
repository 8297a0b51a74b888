import assert from "node:assert/strict";
import type { AgentGraph } from "../../server/src/analysis/api";
import { layoutGraph } from "../../client/media/diagramLayout";
import { machineGraph } from "./samples";

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
});
