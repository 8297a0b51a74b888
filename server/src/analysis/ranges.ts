// Source ranges: 0-based lines and columns, UTF-16 offsets (what JavaScript strings and LSP use).
// Built from the TypeScript compiler's own line map, so no extra pass over the text.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { SourceRange } from "./types";

/** The range between two offsets of a parsed file. Offsets are clamped to the text. */
export function rangeAt(sf: ts.SourceFile, start: number, end: number): SourceRange {
  const length = sf.text.length;
  const s = Math.max(0, Math.min(start, length));
  const e = Math.max(s, Math.min(end, length));
  // The compiler's line map with a plain binary search: the same numbers as getLineAndCharacterOfPosition,
  // without its two intermediate objects per range (ranges are made for every symbol and reference).
  const starts = sf.getLineStarts();
  const startLine = lineOfPosition(starts, s);
  const endLine = e === s ? startLine : lineOfPosition(starts, e);
  return { start: s, end: e, startLine, startColumn: s - starts[startLine]!, endLine, endColumn: e - starts[endLine]! };
}

/** The 0-based line holding `pos`: the last line start at or before it. */
export function lineOfPosition(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The range of a compiler node's text, without leading trivia. */
export function rangeOfTs(sf: ts.SourceFile, node: ts.Node): SourceRange {
  return rangeAt(sf, node.getStart(sf), node.end);
}

/** The range of a string literal's contents (inside the quotes). For other nodes, the node's range. */
export function contentRangeOfTs(sf: ts.SourceFile, node: ts.Node): SourceRange {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    const start = node.getStart(sf);
    // An unterminated literal has no closing quote: stop at the end of what was typed.
    const closed = node.end - start >= 2 && sf.text.charCodeAt(node.end - 1) === sf.text.charCodeAt(start);
    return rangeAt(sf, start + 1, closed ? node.end - 1 : node.end);
  }
  return rangeOfTs(sf, node);
}

/** Line starts of a plain text (for text that was not parsed). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}
