// Which diagrams belong to what: one machine or flow (Show diagram), the call on a line (a run from a
// lens: the machine of a runSeam, the flows of the agent a turn uses — never a flow of the same id that
// the eval does not use), and everything an eval file's calls run (a Testing view run).
import type { AgentGraph, FileAnalysis, LensAnchor } from "../api";
import { flowIdsOfTurnSite, siteAnchorsOf } from "./evals";
import { graphById } from "./resolve";
import type { CatalogSource } from "./types";

export type DiagramQuery =
  | { kind: "machine"; machineId: string; near?: FileAnalysis }
  /** `line` (0-based) tells two flows of the file with the same id apart: the one whose definition spans it wins. */
  | { kind: "flow"; analysis: FileAnalysis; flowId: string; line?: number };

export function diagramOf(query: DiagramQuery, source: CatalogSource): AgentGraph | undefined {
  if (query.kind === "machine") {
    const graph = graphById(query.machineId, query.near, source);
    return graph?.kind === "machine" ? graph : undefined;
  }
  const flows = query.analysis.graphs.filter((g) => g.kind === "flow" && g.name === query.flowId);
  const line = query.line;
  return (line === undefined ? undefined : flows.find((g) => g.range && g.range.startLine <= line && line <= g.range.endLine)) ?? flows[0];
}

/** The anchors of the calls on `line` (1-based): the call starting there, else the calls spanning it. */
function anchorsAt(analysis: FileAnalysis, line: number): LensAnchor[] {
  const sites = siteAnchorsOf(analysis);
  const exact = sites.filter((l) => l.target.line === line);
  return exact.length ? exact : sites.filter((l) => l.range.startLine <= line - 1 && line - 1 <= l.range.endLine);
}

function graphsOfAnchor(anchor: LensAnchor, analysis: FileAnalysis, source: CatalogSource): AgentGraph[] {
  const ids = anchor.target.kind === "run-turns" ? flowIdsOfTurnSite(anchor, analysis, source) : anchor.target.machineId ? [anchor.target.machineId] : [];
  return ids.flatMap((id) => graphById(id, analysis, source) ?? []);
}

function unique(graphs: AgentGraph[]): AgentGraph[] {
  const seen = new Map<string, AgentGraph>();
  for (const g of graphs) if (!seen.has(g.id)) seen.set(g.id, g);
  return [...seen.values()];
}

/** The diagrams of what the call on `line` (1-based) of the file runs. */
export function siteGraphs(analysis: FileAnalysis, line: number, source: CatalogSource): AgentGraph[] {
  return unique(anchorsAt(analysis, line).flatMap((a) => graphsOfAnchor(a, analysis, source)));
}

/** The diagrams of everything the file's calls run (machines of runSeam calls, flows of turn calls). */
export function evalGraphs(analysis: FileAnalysis, source: CatalogSource): AgentGraph[] {
  return unique(siteAnchorsOf(analysis).flatMap((a) => graphsOfAnchor(a, analysis, source)));
}
