// What the client asks the language server (the analysis knows; the client never re-derives it): the
// catalog, and which diagrams belong to a run. The VS Code implementation is catalog.ts; runs take this
// interface so they can be driven without VS Code.
import type { AgentGraph, CatalogResult, DiagramTarget } from "@agent-lens/protocol";

export interface WorkspaceQueries {
  /** The workspace's machines, flows and eval files (with their calls and the flows they use). */
  catalog(): Promise<CatalogResult>;
  /** The diagrams of what the call on `line` (1-based) of `file` runs. */
  siteGraphs(file: string, line: number): Promise<AgentGraph[]>;
  /** The diagrams of everything an eval file's calls run. */
  evalGraphs(file: string): Promise<AgentGraph[]>;
  /** One machine (by id; `file` defines or uses it) or one flow of `file`. */
  diagram(target: Pick<DiagramTarget, "kind" | "file" | "machineId" | "flowId"> & { line?: number }): Promise<AgentGraph | undefined>;
}

export const EMPTY_CATALOG: CatalogResult = Object.freeze({ machines: [], flows: [], evalFiles: [] }) as CatalogResult;
