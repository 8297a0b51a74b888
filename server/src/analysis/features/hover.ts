// Hover: the analysis' markdown summary of the symbol under the cursor (a state's transitions and
// reachability, a request's model, schemas and prompt, a field's type and ask, a flow's triggers).
import type { FileAnalysis } from "../api";
import type { SourceRange } from "../types";
import { locate, symbolAt, type SymbolIndex } from "./locate";

export interface HoverResult {
  markdown: string;
  range: SourceRange;
}

export function hoverAt(index: SymbolIndex, analysis: FileAnalysis, offset: number): HoverResult | undefined {
  const { reference, symbol: declared } = locate(analysis, offset);
  const symbol = symbolAt(index, analysis, offset);
  const range = declared?.nameRange ?? reference?.range;
  if (!range) return undefined;
  if (!symbol) {
    // A reference that names nothing: say so rather than stay silent.
    return reference ? { markdown: `\`${reference.text}\` names no ${reference.kind}.`, range } : undefined;
  }
  const header = "```\n(" + symbol.kind + ") " + symbol.name + (symbol.detail ? " — " + symbol.detail : "") + "\n```";
  return { markdown: symbol.summary ? `${header}\n\n${symbol.summary}` : header, range };
}
