// Applies an AstEdit to a parsed file in place: the literal's text, the positions of every node after the
// edit (and the ends of the nodes around it), the file's text and line map. The nodes stay the same
// objects, so whatever an analysis kept of them (its model) stays attached to the file. Also splices a
// re-parsed object literal member (splice.ts) into the tree in place of the old one.
//
// The nodes after the edit are found in a flat list of the tree in source order (built at the first
// patch of a tree, kept with it): in that order full starts never decrease, so they are the list's tail
// from the first node starting at or after the edit's end. The nodes around the edit are the container's
// ancestors (and the node lists holding it).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { AstEdit } from "./edit";
import type { MemberSplice } from "./splice";
import { firstStartingAt, lineStartsOf } from "../parse";
import { lineOfPosition } from "../ranges";

type Positioned = { pos: number; end: number };

const orders = new WeakMap<ts.SourceFile, Positioned[]>();

/** Every node and node list under `sf`, parents before children, in source order (built once per tree). */
function sourceOrder(sf: ts.SourceFile): Positioned[] {
  let list = orders.get(sf);
  if (!list) orders.set(sf, (list = subtreeOrder(sf).slice(1)));
  return list;
}

/** `root` and every node and node list under it, parents before children, in source order. */
function subtreeOrder(root: ts.Node): Positioned[] {
  // an explicit stack, not recursion: expressions may nest deeper than the call stack goes
  const out: Positioned[] = [root as unknown as Positioned];
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
  pushChildrenOf(root);
  while (stack.length) {
    const item = stack.pop()!;
    out.push(item as unknown as Positioned);
    if (isNodeArray(item)) for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]!);
    else pushChildrenOf(item);
  }
  return out;
}

function isNodeArray(item: ts.Node | ts.NodeArray<ts.Node>): item is ts.NodeArray<ts.Node> {
  return Array.isArray(item);
}

export function patchAst(sf: ts.SourceFile, edit: AstEdit, newText: string): void {
  const { start, oldEnd, delta } = edit;
  const lineStarts = sf.getLineStarts();
  if (delta !== 0) {
    growAround(sf, edit.container, start, oldEnd, delta);
    const order = sourceOrder(sf);
    shiftFrom(order, firstStartingAt(order, oldEnd), delta);
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

/** The container, its ancestors and the node lists among their children holding [start, oldEnd): their
 *  ends move by `delta` (read before anything moved). */
function growAround(sf: ts.SourceFile, container: ts.Node, start: number, oldEnd: number, delta: number): void {
  const grow = (nodes: ts.NodeArray<ts.Node>): undefined => {
    if (nodes.pos < oldEnd && nodes.end > start) (nodes as unknown as Positioned).end += delta;
    return undefined;
  };
  for (let n: ts.Node | undefined = container; n && n.kind !== ts.SyntaxKind.SourceFile; n = n.parent) {
    (n as unknown as Positioned).end += delta;
    ts.forEachChild(n, () => undefined, grow);
  }
  ts.forEachChild(sf, () => undefined, grow);
  (sf as unknown as Positioned).end += delta;
}

function shiftFrom(order: Positioned[], from: number, delta: number): void {
  for (let i = from; i < order.length; i++) {
    const n = order[i]!;
    n.pos += delta;
    n.end += delta;
  }
}

/**
 * Replaces one object literal member by its new parse (splice.ts): the member in its parent's list, the
 * flat source order (the old member's subtree out, the new one in, everything after it moved), the ends of
 * the nodes around it, the file's text, line map and `// @ts-` directives. Parents under the new member
 * are set before (parse.ts `adoptMember`).
 */
export function spliceMember(sf: ts.SourceFile, splice: MemberSplice, newText: string): void {
  const { start, oldEnd, delta, old, replacement } = splice;
  const object = old.parent as ts.ObjectLiteralExpression;
  const order = sourceOrder(sf);
  // the old member in the flat order: the first item at its start that is it (its list may start there too)
  let at = firstStartingAt(order, start);
  while (at < order.length && order[at] !== (old as unknown as Positioned)) at++;
  if (at === order.length) throw new Error("spliceMember: the member is not in its file's source order");
  const tail = at + subtreeOrder(old).length;
  const added = subtreeOrder(replacement);
  if (delta !== 0) {
    growAround(sf, object, start, oldEnd, delta);
    shiftFrom(order, tail, delta);
  }
  // the old subtree's items out, the new one's in (in place: the list holds every node of the file)
  const length = order.length;
  const grown = at + added.length - tail;
  if (grown > 0) {
    order.length = length + grown;
    order.copyWithin(tail + grown, tail, length);
  } else if (grown < 0) {
    order.copyWithin(tail + grown, tail, length);
    order.length = length + grown;
  }
  for (let i = 0; i < added.length; i++) order[at + i] = added[i]!;
  const list = object.properties as unknown as ts.Node[];
  list[list.indexOf(old)] = replacement;
  const file = sf as ts.SourceFile & { text: string; lineMap?: readonly number[]; commentDirectives?: Array<{ range: Positioned }> };
  file.text = newText;
  file.lineMap = lineStartsOf(newText); // undefined: the compiler's own, computed when first asked for
  if (file.commentDirectives?.length || splice.directives.length) {
    const kept: Array<{ range: Positioned }> = [];
    for (const d of file.commentDirectives ?? []) {
      if (d.range.end <= start) kept.push(d);
      else if (d.range.pos >= oldEnd) kept.push({ ...d, range: { pos: d.range.pos + delta, end: d.range.end + delta } });
    }
    kept.push(...(splice.directives as Array<{ range: Positioned }>));
    file.commentDirectives = kept.sort((a, b) => a.range.pos - b.range.pos);
  }
}
