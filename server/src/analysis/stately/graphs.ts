// A machine's diagram: its states (nested, the initial marked) and the transitions whose targets resolve.
import type { AgentGraph } from "../api";
import type { MachineDef } from "./model";
import { fullRange } from "./output-parts";
import { resolveInitial } from "./targets";

export function machineGraph(machine: MachineDef): AgentGraph {
  const graph: AgentGraph = { kind: "machine", id: machine.symbolId, name: machine.name, range: fullRange(machine), nodes: [], edges: [] };
  for (const state of machine.states) {
    if (!state.parent) continue;
    const isInitial = resolveInitial(state.parent)?.state === state;
    graph.nodes.push({
      id: state.symbolId,
      path: state.path.join("."),
      label: state.key,
      type: state.type,
      parent: state.parent.parent ? state.parent.symbolId : undefined,
      initial: isInitial,
      range: fullRange(state),
      file: state.at.file,
    });
  }
  for (const state of machine.states) {
    for (const t of state.transitions) {
      for (const target of t.targets) {
        if (target.state) graph.edges.push({ source: state.symbolId, target: target.state.symbolId, label: t.event, range: fullRange(t), file: t.at.file });
      }
    }
  }
  return graph;
}
