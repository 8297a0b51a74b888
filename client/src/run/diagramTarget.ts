// "Show diagram" on a machine or a flow: which diagram a lens stands for. The server puts an "Explore
// paths" lens on every machine and a "Run turns" lens on every flow; the client adds "Show diagram" beside
// each (see lensMiddleware.ts) and draws the graph the server already computes for the file (the
// agentLens/graphs request). Pure.
import type { AgentGraph, LensTarget } from "../../../server/src/analysis/api";

export const SHOW_DIAGRAM_COMMAND = "agentLens.showDiagram";

export interface DiagramTarget {
  kind: "machine" | "flow";
  /** The file defining it (absolute). */
  file: string;
  /** 0-based line of the lens (the machine's / flow's definition). */
  line: number;
  machineId?: string;
  flowId?: string;
}

/** The diagram a server lens stands for: a machine's Explore paths lens, a flow's own Run turns lens. */
export function diagramTargetOf(target: LensTarget | undefined, isRunLens: boolean, file: string, line: number): DiagramTarget | undefined {
  if (!isRunLens || !target || typeof target !== "object") return undefined;
  if (target.kind === "explore-paths" && target.line === undefined && target.machineId) return { kind: "machine", file, line, machineId: target.machineId };
  if (target.kind === "run-turns" && target.line === undefined && target.flowId) return { kind: "flow", file, line, flowId: target.flowId };
  return undefined;
}

/**
 * The graph of a diagram target among a file's graphs: a machine by its symbol id; a flow by its id, and
 * when two flows of the file share it (a duplicate-flow mistake), the one whose definition starts on the
 * lens's line (a flow graph's "end" node carries the flow's own range).
 */
export function pickGraph(graphs: readonly AgentGraph[], target: DiagramTarget): AgentGraph | undefined {
  if (target.kind === "machine") return graphs.find((g) => g.kind === "machine" && g.id === target.machineId);
  const flows = graphs.filter((g) => g.kind === "flow" && g.name === target.flowId);
  if (flows.length <= 1) return flows[0];
  return flows.find((g) => g.nodes.some((n) => n.range.startLine === target.line && n.type === "final")) ?? flows[0];
}
