// Applies an AstEdit to a parsed file in place: the literal's text, the positions of every node after the
// edit (and the ends of the nodes around it), the file's text and line map. The nodes stay the same
// objects, so whatever an analysis kept of them (its model) stays attached to the file. Nodes before the
// edit are not visited.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { AstEdit } from "./edit";

type Mutable = { pos: number; end: number };

export function patchAst(sf: ts.SourceFile, edit: AstEdit, newText: string): void {
  const { start, oldEnd, delta } = edit;
  const shiftAll = (node: ts.Node): undefined => {
    (node as unknown as Mutable).pos += delta;
    (node as unknown as Mutable).end += delta;
    ts.forEachChild(node, shiftAll, shiftArray);
    return undefined;
  };
  const shiftArray = (nodes: ts.NodeArray<ts.Node>): undefined => {
    (nodes as unknown as Mutable).pos += delta;
    (nodes as unknown as Mutable).end += delta;
    for (const n of nodes) shiftAll(n);
    return undefined;
  };
  const visit = (node: ts.Node): undefined => {
    if (node.end <= start) return undefined; // before the edit: unchanged
    if (node.pos >= oldEnd) return shiftAll(node); // after it: moved
    (node as unknown as Mutable).end += delta; // around it
    ts.forEachChild(node, visit, visitArray);
    return undefined;
  };
  const visitArray = (nodes: ts.NodeArray<ts.Node>): undefined => {
    if (nodes.end <= start) return undefined;
    if (nodes.pos >= oldEnd) return shiftArray(nodes);
    (nodes as unknown as Mutable).end += delta;
    for (const n of nodes) visit(n);
    return undefined;
  };
  (sf as unknown as Mutable).end += delta;
  ts.forEachChild(sf, visit, visitArray);
  if (edit.kind === "literal") {
    const literal = edit.literal as ts.StringLiteral & { rawText?: string; hasExtendedUnicodeEscape?: boolean };
    literal.text = edit.value;
    if (literal.rawText !== undefined) literal.rawText = edit.value;
    if (literal.hasExtendedUnicodeEscape) literal.hasExtendedUnicodeEscape = false;
  }
  const file = sf as ts.SourceFile & { text: string; lineMap?: readonly number[]; commentDirectives?: Array<{ range: Mutable }> };
  file.text = newText;
  file.lineMap = undefined; // recomputed from the new text on first use
  for (const d of file.commentDirectives ?? []) {
    if (d.range.pos >= oldEnd) {
      d.range.pos += delta;
      d.range.end += delta;
    } else if (d.range.end > start) d.range.end += delta;
  }
}
