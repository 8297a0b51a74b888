// Go to definition: a reference resolves to its declaration; a declaration resolves to itself.
import type { AgentSymbol, FileAnalysis } from "../api";
import { locate, type SymbolIndex } from "./locate";

export function definitionAt(index: SymbolIndex, analysis: FileAnalysis, offset: number): AgentSymbol[] {
  const { reference, symbol } = locate(analysis, offset);
  if (reference) {
    if (!reference.targetId) return [];
    const target = index.symbol(reference.targetId) ?? analysis.symbols.find((s) => s.id === reference.targetId);
    return target ? [target] : [];
  }
  return symbol ? [symbol] : [];
}
