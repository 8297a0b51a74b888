// Finds what the cursor is on: a reference (a string naming a symbol) or a symbol's own name.
import type { AgentReference, AgentSymbol, FileAnalysis } from "../api";
import type { SourceRange } from "../types";

/** The part of the workspace the features read: symbols by id and references to them. */
export interface SymbolIndex {
  symbol(symbolId: string): AgentSymbol | undefined;
  referencesTo(symbolId: string): AgentReference[];
  /** Places that may name the symbol but are not tied to it with certainty (see AgentReference.uncertain). */
  uncertainReferencesTo(symbol: AgentSymbol): AgentReference[];
}

export interface CursorTarget {
  reference?: AgentReference;
  symbol?: AgentSymbol;
}

/** True when `offset` lies inside the range or touches one of its ends (a cursor right after a name). */
export function touches(range: SourceRange, offset: number): boolean {
  return offset >= range.start && offset <= range.end;
}

function smallest<T>(items: T[], rangeOf: (item: T) => SourceRange): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    const r = rangeOf(item);
    if (!best || r.end - r.start < rangeOf(best).end - rangeOf(best).start) best = item;
  }
  return best;
}

/** The reference or declaration name at `offset` of the analyzed file (references win: they are inside strings). */
export function locate(analysis: FileAnalysis, offset: number): CursorTarget {
  const reference = smallest(
    analysis.references.filter((r) => r.file === analysis.file && touches(r.range, offset)),
    (r) => r.range,
  );
  if (reference) return { reference };
  const symbol = smallest(
    analysis.symbols.filter((s) => s.file === analysis.file && touches(s.nameRange, offset)),
    (s) => s.nameRange,
  );
  return symbol ? { symbol } : {};
}

/** The symbol the cursor designates: the declaration under it, or what the reference under it resolves to. */
export function symbolAt(index: SymbolIndex, analysis: FileAnalysis, offset: number): AgentSymbol | undefined {
  const { reference, symbol } = locate(analysis, offset);
  if (symbol) return symbol;
  if (reference?.targetId) {
    return index.symbol(reference.targetId) ?? analysis.symbols.find((s) => s.id === reference.targetId);
  }
  return undefined;
}

/** A sub-range of a single-line range, by offsets relative to its start. */
export function subRange(range: SourceRange, from: number, to: number): SourceRange {
  if (range.startLine !== range.endLine) {
    // Multi-line texts (template literals) cannot be split by column arithmetic; keep the whole range.
    return range;
  }
  return {
    start: range.start + from,
    end: range.start + to,
    startLine: range.startLine,
    startColumn: range.startColumn + from,
    endLine: range.startLine,
    endColumn: range.startColumn + to,
  };
}

/**
 * Where `name` sits inside a reference's text. A target may be "scoring", ".child", "#id" or
 * "parent.child": the segment that names the symbol is the last path segment equal to `name`.
 */
export function nameSpanIn(reference: AgentReference, name: string): SourceRange | undefined {
  if (reference.text === name) return reference.range;
  const text = reference.text;
  let found: { from: number; to: number } | undefined;
  const segment = /[^.#]+/g;
  for (let m = segment.exec(text); m; m = segment.exec(text)) {
    if (m[0] === name) found = { from: m.index, to: m.index + m[0].length };
  }
  return found ? subRange(reference.range, found.from, found.to) : undefined;
}
