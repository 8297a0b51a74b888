// Find references: every string that names the symbol under the cursor, across the indexed files.
import type { FileAnalysis } from "../api";
import type { SourceRange } from "../types";
import { symbolAt, type SymbolIndex } from "./locate";

export interface Location {
  file: string;
  range: SourceRange;
}

export function referencesAt(index: SymbolIndex, analysis: FileAnalysis, offset: number, includeDeclaration: boolean): Location[] {
  const symbol = symbolAt(index, analysis, offset);
  if (!symbol) return [];
  const out: Location[] = [];
  const seen = new Set<string>();
  const add = (loc: Location) => {
    const key = `${loc.file}:${loc.range.start}:${loc.range.end}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(loc);
  };
  if (includeDeclaration) add({ file: symbol.file, range: symbol.nameRange });
  for (const ref of index.referencesTo(symbol.id)) add({ file: ref.file, range: ref.range });
  // The open file's own analysis may be newer than the index (unsaved edits): include its references too.
  for (const ref of analysis.references) if (ref.targetId === symbol.id) add({ file: ref.file, range: ref.range });
  return out.sort((a, b) => (a.file === b.file ? a.range.start - b.range.start : a.file < b.file ? -1 : 1));
}
