// The diagrams of a run are the flows of the agent the eval used (its own file and what it imports), not
// a flow of the same id elsewhere in the workspace; "Show diagram" finds its graph among a file's.
import assert from "node:assert/strict";
import type { AgentGraph } from "../../server/src/analysis/api";
import { pickGraph, diagramTargetOf } from "../../client/src/run/diagramTarget";
import { flowGraphsOfRun, reachableFiles, relativeImports, resolveRelative } from "../../client/src/run/runGraphs";

const files: Record<string, string> = {
  "/w/falai/triage-agent.test.ts": `import assert from "node:assert/strict";\nimport { createTriageAgent, type Data } from "./triage-agent";\n// import { x } from "./commented-out";\n`,
  "/w/falai/triage-agent.ts": `import { falai } from "@falai/agent";\nexport * from "./shared/flows.js";\n`,
  "/w/falai/shared/flows.ts": `export const x = 1;\n`,
  "/w/falai/replay.test.ts": `import { falai } from "@falai/agent";\n`,
  "/w/falai/commented-out.ts": ``,
};
const read = (f: string) => files[f];
const exists = (f: string) => f in files;
const range = (line: number) => ({ start: 0, end: 0, startLine: line, startColumn: 0, endLine: line, endColumn: 0 });
const flow = (file: string, name: string, line = 0): AgentGraph => ({
  kind: "flow", id: `${file}#flow:${name}@${line}`, name,
  nodes: [{ id: `${file}:${name}:a`, path: "a", label: "a", type: "step", range: range(line + 1), file }, { id: `${file}:${name}/end`, path: "end", label: "end", type: "final", range: range(line), file }],
  edges: [],
});
const graphs: Record<string, AgentGraph[]> = {
  "/w/falai/triage-agent.ts": [flow("/w/falai/triage-agent.ts", "triagem"), flow("/w/falai/triage-agent.ts", "retomar", 20)],
  "/w/falai/replay.test.ts": [flow("/w/falai/replay.test.ts", "boas-vindas"), flow("/w/falai/replay.test.ts", "retomar", 30)],
};

describe("client: the diagrams that belong to a run", () => {
  it("reads relative imports (static, re-exports, dynamic), not comments or packages", () => {
    assert.deepEqual(relativeImports(files["/w/falai/triage-agent.test.ts"]), ["./triage-agent"]);
    assert.deepEqual(relativeImports(`export * from "./a.js"; const m = await import("../b"); import "./c";`), ["./a.js", "../b", "./c"]);
  });

  it("resolves specifiers the way TypeScript does (extension optional, .js for .ts, folder index)", () => {
    assert.equal(resolveRelative("/w/falai/triage-agent.ts", "./shared/flows.js", exists), "/w/falai/shared/flows.ts");
    assert.equal(resolveRelative("/w/falai/triage-agent.test.ts", "./triage-agent", exists), "/w/falai/triage-agent.ts");
    assert.equal(resolveRelative("/w/falai/x.ts", "./missing", exists), undefined);
  });

  it("the eval's flows come from the files it reaches; the other file's flow of the same id is left out", async () => {
    const reachable = reachableFiles("/w/falai/triage-agent.test.ts", read, exists);
    assert.deepEqual(reachable, ["/w/falai/triage-agent.test.ts", "/w/falai/triage-agent.ts", "/w/falai/shared/flows.ts"]);
    const asked: string[] = [];
    const got = await flowGraphsOfRun(["triagem", "retomar"], reachable, async (f) => (asked.push(f), graphs[f] ?? []), (f) => f in graphs);
    assert.deepEqual(got.map((g) => g.id), [graphs["/w/falai/triage-agent.ts"][0].id, graphs["/w/falai/triage-agent.ts"][1].id]);
    assert.deepEqual(asked, ["/w/falai/triage-agent.ts"], "only files that define flows are asked for graphs");
    const replay = await flowGraphsOfRun(["retomar"], reachableFiles("/w/falai/replay.test.ts", read, exists), async (f) => graphs[f] ?? [], (f) => f in graphs);
    assert.deepEqual(replay.map((g) => g.nodes[0].file), ["/w/falai/replay.test.ts"]);
  });

  it("Show diagram stands beside a machine's Explore paths lens and a flow's own Run turns lens only", () => {
    assert.deepEqual(diagramTargetOf({ kind: "explore-paths", file: "/w/m.ts", machineId: "/w/m.ts#machine:m" }, true, "/w/m.ts", 4), { kind: "machine", file: "/w/m.ts", line: 4, machineId: "/w/m.ts#machine:m" });
    assert.deepEqual(diagramTargetOf({ kind: "run-turns", file: "/w/f.ts", flowId: "triagem" }, true, "/w/f.ts", 9), { kind: "flow", file: "/w/f.ts", line: 9, flowId: "triagem" });
    assert.equal(diagramTargetOf({ kind: "run-turns", file: "/w/f.test.ts", line: 30 }, true, "/w/f.test.ts", 29), undefined, "a turn call site is not a flow");
    assert.equal(diagramTargetOf({ kind: "run-seam", file: "/w/m.ts", request: "r", machineId: "x" }, true, "/w/m.ts", 3), undefined);
    assert.equal(diagramTargetOf({ kind: "explore-paths", file: "/w/m.ts", machineId: "x" }, false, "/w/m.ts", 3), undefined);
  });

  it("picks a machine by its id, and of two flows sharing an id the one defined on the lens's line", () => {
    const twins = [flow("/w/f.ts", "cadastro", 11), flow("/w/f.ts", "cadastro", 44)];
    assert.equal(pickGraph(twins, { kind: "flow", file: "/w/f.ts", line: 44, flowId: "cadastro" }), twins[1]);
    assert.equal(pickGraph(twins, { kind: "flow", file: "/w/f.ts", line: 11, flowId: "cadastro" }), twins[0]);
    const machine: AgentGraph = { kind: "machine", id: "/w/m.ts#machine:m", name: "m", nodes: [], edges: [] };
    assert.equal(pickGraph([machine, ...twins], { kind: "machine", file: "/w/m.ts", line: 0, machineId: "/w/m.ts#machine:m" }), machine);
  });
});
