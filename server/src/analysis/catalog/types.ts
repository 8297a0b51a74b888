// What the catalog queries answer and what they need. Pure data; the language server adapts it to the
// protocol (paths become URIs there).
import type { AgentSymbol, FileAnalysis } from "../api";

export type { EvalSite } from "@agent-lens/protocol/analysis";

/** A machine or flow named by the catalog. `line` is 0-based: the line of its name / id. */
export interface DefinitionRef {
  id: string;
  name: string;
  file: string;
  line: number;
}

export interface MachineEntry extends DefinitionRef {
  exportName?: string;
  /** The request names its invokes and scripts can use. */
  requests: string[];
  /** The requests a seam run can put under the seam (what its "Run seam" lenses offer). */
  seams: string[];
}

/** How a query reaches other files' analyses. The server answers from its cache; tests from a workspace. */
export interface CatalogSource {
  analysisOf(file: string): FileAnalysis;
  /** A symbol by id, when the workspace has analyzed the file defining it. */
  symbol(id: string): AgentSymbol | undefined;
}
