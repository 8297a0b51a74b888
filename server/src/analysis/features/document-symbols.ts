// The outline: machine → states tree, agent → requests, field set → fields, flow → steps.
import type { AgentSymbol, FileAnalysis, SymbolKind } from "../api";
import type { SourceRange } from "../types";

export interface OutlineNode {
  symbol: AgentSymbol;
  /** The whole declaration, widened when needed so it contains the name and the children. */
  range: SourceRange;
  children: OutlineNode[];
}

/** Model keys are names used by requests, not declarations: they stay out of the outline. */
const HIDDEN: ReadonlySet<SymbolKind> = new Set<SymbolKind>(["model"]);

function union(a: SourceRange, b: SourceRange): SourceRange {
  const first = a.start <= b.start ? a : b;
  const last = a.end >= b.end ? a : b;
  return { start: first.start, startLine: first.startLine, startColumn: first.startColumn, end: last.end, endLine: last.endLine, endColumn: last.endColumn };
}

export function documentSymbolTree(analysis: FileAnalysis): OutlineNode[] {
  const own = analysis.symbols.filter((s) => s.file === analysis.file && !HIDDEN.has(s.kind));
  const nodes = new Map<string, OutlineNode>();
  for (const symbol of own) if (!nodes.has(symbol.id)) nodes.set(symbol.id, { symbol, range: union(symbol.range, symbol.nameRange), children: [] });
  const roots: OutlineNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.symbol.parentId ? nodes.get(node.symbol.parentId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const finish = (list: OutlineNode[]): OutlineNode[] => {
    list.sort((a, b) => a.range.start - b.range.start);
    for (const node of list) {
      finish(node.children);
      for (const child of node.children) node.range = union(node.range, child.range);
    }
    return list;
  };
  return finish(roots);
}
