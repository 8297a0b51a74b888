// Symbol ids → the symbols and graphs they name, without reading anything into the id itself: the
// workspace's symbol index first, else the analyses of the files `near` read (its imports, followed by
// the analysis), where a definition it uses must be.
import type { AgentGraph, AgentSymbol, FileAnalysis } from "../api";
import type { CatalogSource } from "./types";

export function symbolNear(id: string, near: FileAnalysis | undefined, source: CatalogSource): AgentSymbol | undefined {
  const indexed = source.symbol(id);
  if (indexed) return indexed;
  for (const file of near ? [near.file, ...near.dependencies] : []) {
    const found = (file === near!.file ? near! : source.analysisOf(file)).symbols.find((s) => s.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The graph of a machine or flow by its symbol id (graphs are reported by the file defining them). */
export function graphById(id: string, near: FileAnalysis | undefined, source: CatalogSource): AgentGraph | undefined {
  const symbol = symbolNear(id, near, source);
  if (!symbol) return undefined;
  const home = near && near.file === symbol.file ? near : source.analysisOf(symbol.file);
  return home.graphs.find((g) => g.id === id);
}
