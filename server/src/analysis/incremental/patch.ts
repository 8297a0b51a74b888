// Applies an AstEdit to a parsed file in place: the literal's text, the positions of every node after the
// edit (and the ends of the nodes around it), the file's text and line map. The nodes stay the same
// objects, so whatever an analysis kept of them (its model) stays attached to the file.
//
// The nodes after the edit are found in a flat list of the tree in source order (built at the first
// patch of a tree, kept with it): in that order full starts never decrease, so they are the list's tail
// from the first node starting at or after the edit's end. The nodes around the edit are the container's
// ancestors (and the node lists holding it).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { AstEdit } from "./edit";
import { lineOfPosition } from "../ranges";

type Positioned = { pos: number; end: number };

const orders = new WeakMap<ts.SourceFile, Positioned[]>();

/** Every node and node list under `sf`, parents before children, in source order. */
function sourceOrder(sf: ts.SourceFile): Positioned[] {
  let list = orders.get(sf);
  if (!list) {
    // an explicit stack, not recursion: expressions may nest deeper than the call stack goes
    const out: Positioned[] = [];
    const stack: Array<ts.Node | ts.NodeArray<ts.Node>> = [];
    const pushChildrenOf = (node: ts.Node) => {
      const from = stack.length;
      ts.forEachChild(
        node,
        (child) => void stack.push(child),
        (nodes) => void stack.push(nodes),
      );
      for (let i = from, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j]!, stack[i]!];
    };
    pushChildrenOf(sf);
    while (stack.length) {
      const item = stack.pop()!;
      out.push(item as unknown as Positioned);
      if (isNodeArray(item)) for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]!);
      else pushChildrenOf(item);
    }
    orders.set(sf, (list = out));
  }
  return list;
}

function isNodeArray(item: ts.Node | ts.NodeArray<ts.Node>): item is ts.NodeArray<ts.Node> {
  return Array.isArray(item);
}

export function patchAst(sf: ts.SourceFile, edit: AstEdit, newText: string): void {
  const { start, oldEnd, delta } = edit;
  const lineStarts = sf.getLineStarts();
  if (delta !== 0) {
    // around the edit (read before anything moved): the container, its ancestors, and the node lists among their children holding it
    const grow = (nodes: ts.NodeArray<ts.Node>): undefined => {
      if (nodes.pos < oldEnd && nodes.end > start) (nodes as unknown as Positioned).end += delta;
      return undefined;
    };
    for (let n: ts.Node | undefined = edit.container; n && n.kind !== ts.SyntaxKind.SourceFile; n = n.parent) {
      (n as unknown as Positioned).end += delta;
      ts.forEachChild(n, () => undefined, grow);
    }
    ts.forEachChild(sf, () => undefined, grow);
    (sf as unknown as Positioned).end += delta;
    const order = sourceOrder(sf);
    // the first node starting at or after the edit's end
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order[mid]!.pos >= oldEnd) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < order.length; i++) {
      const n = order[i]!;
      n.pos += delta;
      n.end += delta;
    }
  }
  if (edit.kind === "literal") {
    const literal = edit.literal as ts.StringLiteral & { rawText?: string; hasExtendedUnicodeEscape?: boolean };
    literal.text = edit.value;
    if (literal.rawText !== undefined) literal.rawText = edit.value;
    if (literal.hasExtendedUnicodeEscape) literal.hasExtendedUnicodeEscape = false;
  }
  const file = sf as ts.SourceFile & { text: string; lineMap?: readonly number[]; commentDirectives?: Array<{ range: Positioned }> };
  file.text = newText;
  // no line was added or removed: the lines after the edit's line start `delta` later
  const line = lineOfPosition(lineStarts, start);
  file.lineMap = delta === 0 ? lineStarts : lineStarts.map((s, i) => (i > line ? s + delta : s));
  for (const d of file.commentDirectives ?? []) {
    if (d.range.pos >= oldEnd) {
      d.range.pos += delta;
      d.range.end += delta;
    } else if (d.range.end > start) d.range.end += delta;
  }
}
