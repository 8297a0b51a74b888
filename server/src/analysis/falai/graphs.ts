// A diagram per flow: a node per step (plus "end"), edges for the order steps run in, a wait's `else`
// and a branch's `goto`.
import type { AgentGraph } from "../api";
import type { FalaiFileModel, FlowModel } from "./model";

export function flowGraph(flow: FlowModel): AgentGraph {
  const endId = `${flow.symbolId}/end`;
  const nodes: AgentGraph["nodes"] = flow.steps.map((s) => ({
    id: s.symbolId,
    path: s.id?.text ?? `#${s.index + 1}`,
    label: s.id?.text ?? `#${s.index + 1}`,
    type: "step" as const,
    initial: s.index === 0,
    range: s.range,
    file: flow.file,
  }));
  const edges: AgentGraph["edges"] = [];
  const idOf = (name: string) => (name === "end" ? endId : flow.steps.find((s) => s.id?.text === name)?.symbolId);
  for (const step of flow.steps) {
    const next = flow.steps[step.index + 1];
    if (!step.branches.some((b) => !b.hasWhen)) edges.push({ source: step.symbolId, target: next ? next.symbolId : endId, label: step.hasWait ? `after ${step.wait?.text ?? "wait"}` : "next" });
    if (step.else) {
      const target = idOf(step.else.text);
      if (target) edges.push({ source: step.symbolId, target, label: "else (customer message)" });
    }
    for (const b of step.branches) {
      const target = b.goto ? idOf(b.goto.text) : undefined;
      if (target) edges.push({ source: step.symbolId, target, label: b.hasWhen ? `when ${b.when ?? "…"}` : "otherwise" });
    }
  }
  nodes.push({ id: endId, path: "end", label: "end", type: "final", range: flow.range, file: flow.file });
  return { kind: "flow", id: flow.symbolId, name: flow.id?.text ?? "flow", nodes, edges };
}

export function graphsOf(model: FalaiFileModel): AgentGraph[] {
  return model.flows.map(flowGraph);
}
