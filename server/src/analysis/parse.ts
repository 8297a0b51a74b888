// Parsing a file for analysis: the TypeScript parser (from ts-morph's bundled compiler API) without its
// `setParentNodes` pass, which costs two to three times the parse itself on big files; parent pointers
// are set by one lean walk instead. The ts-morph wrapper (what library analyzers receive) is created
// around the compiler node, without a Project or a program: nothing on this path uses the type checker.
import { createWrappedNode, ts as morphTs, type SourceFile } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import { walkDescendants } from "./util/walk";

const forEachChild = ts.forEachChild;
const LAST_TOKEN = ts.SyntaxKind.LastToken;
const CALL = ts.SyntaxKind.CallExpression;
const PROPERTY_ASSIGNMENT = ts.SyntaxKind.PropertyAssignment;
let currentParent: ts.Node;
let currentIndex: NodeIndex;

/** Nodes the analyzers look for, recorded by the parent walk (so no analyzer walks the file again). */
export interface NodeIndex {
  /** Every call, in source order (a call before the calls in its arguments). */
  calls: ts.CallExpression[];
  /** Every `flows: ...` property (scripted understand replies hold one). */
  flowsProperties: ts.PropertyAssignment[];
}

const indexes = new WeakMap<ts.SourceFile, NodeIndex>();

/** How deep the parent walk recurses before it leaves a subtree for later: a long prompt built with `+`
 *  is one level per term, and recursion that deep overflows the stack (issue 26). */
const MAX_RECURSION = 400;
let depth = 0;
/** Nodes whose parent is set but whose children wait (they sat MAX_RECURSION levels deep). */
let deferred: ts.Node[] = [];

function setParent(child: ts.Node): undefined {
  (child as { parent: ts.Node }).parent = currentParent;
  if (child.kind === CALL) currentIndex.calls.push(child as ts.CallExpression);
  else if (child.kind === PROPERTY_ASSIGNMENT && ((child as ts.PropertyAssignment).name as ts.Identifier).escapedText === "flows") currentIndex.flowsProperties.push(child as ts.PropertyAssignment);
  if (child.kind > LAST_TOKEN) {
    if (depth >= MAX_RECURSION) {
      deferred.push(child);
      return undefined;
    }
    const saved = currentParent;
    currentParent = child;
    depth++;
    forEachChild(child, setParent, setParentOfEach);
    depth--;
    currentParent = saved;
  }
  return undefined;
}

/** The subtrees left for later, each walked from a fresh depth; the index is put back in source order. */
function drainDeferred(index: NodeIndex): void {
  if (!deferred.length) return;
  while (deferred.length) {
    const node = deferred.pop()!;
    currentParent = node;
    depth = 1;
    forEachChild(node, setParent, setParentOfEach);
  }
  depth = 0;
  // source order, a call before the calls inside it (same start: the longer one first)
  const bySource = (a: ts.Node, b: ts.Node) => a.pos - b.pos || b.end - a.end;
  index.calls.sort(bySource);
  index.flowsProperties.sort(bySource);
}

function setParentOfEach(children: ts.NodeArray<ts.Node>): undefined {
  for (const child of children) setParent(child);
  return undefined;
}

/** Parse with parent pointers set (what scope lookup and ts-morph need), and the line map filled. */
export function parseWithParents(file: string, text: string): ts.SourceFile {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const starts = lineStartsOf(text);
  if (starts) (sf as ts.SourceFile & { lineMap?: readonly number[] }).lineMap = starts; // what getLineStarts() returns
  currentParent = sf;
  currentIndex = { calls: [], flowsProperties: [] };
  indexes.set(sf, currentIndex);
  depth = 0;
  deferred = [];
  forEachChild(sf, setParent, setParentOfEach);
  drainDeferred(currentIndex);
  return sf;
}

/**
 * Parents under a member parsed alone (incremental/splice.ts), and `sf`'s parse index brought to it: the
 * old member's calls and `flows` properties out, the new one's in. Called before the splice moves
 * anything (the old member's range is that of the old text).
 */
export function adoptMember(sf: ts.SourceFile, old: ts.Node, replacement: ts.Node, parent: ts.Node): void {
  const found: NodeIndex = { calls: [], flowsProperties: [] };
  currentParent = parent;
  currentIndex = found;
  depth = 0;
  deferred = [];
  setParent(replacement);
  drainDeferred(found);
  const index = indexes.get(sf);
  if (!index) return;
  replaceRange(index.calls, old.pos, old.end, found.calls);
  replaceRange(index.flowsProperties, old.pos, old.end, found.flowsProperties);
}

/** The items of a list in source order starting in [start, end) replaced by `items`. */
function replaceRange<T extends ts.Node>(list: T[], start: number, end: number, items: T[]): void {
  const from = firstStartingAt(list, start);
  const to = firstStartingAt(list, end);
  const rest = list.slice(to);
  list.length = from;
  for (const item of items) list.push(item);
  for (const item of rest) list.push(item);
}

/** The index of the first item of a list in source order starting at or after `at`. */
export function firstStartingAt(list: ReadonlyArray<{ pos: number }>, at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.pos >= at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Where each line starts, the same numbers as the compiler's computeLineStarts (a line ends at \n, \r\n,
 * \r, U+2028 or U+2029), found with the native indexOf when the text breaks lines with \n alone (nearly
 * every file): several times faster than the compiler's loop over every character. Undefined otherwise
 * (the compiler's own is computed when first asked for).
 */
export function lineStartsOf(text: string): number[] | undefined {
  if (text.includes("\r") || text.includes("\u2028") || text.includes("\u2029")) return undefined;
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The calls and `flows` properties of a file parsed by `parseWithParents` (walked now for a file parsed
 *  otherwise). */
export function nodeIndexOf(sf: ts.SourceFile): NodeIndex {
  let index = indexes.get(sf);
  if (!index) {
    const found: NodeIndex = { calls: [], flowsProperties: [] };
    walkDescendants(sf, (node) => {
      if (ts.isCallExpression(node)) found.calls.push(node);
      else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === "flows") found.flowsProperties.push(node);
    });
    indexes.set(sf, (index = found));
  }
  return index;
}

/** A ts-morph SourceFile around a parsed compiler SourceFile. */
export function wrapSourceFile(sf: ts.SourceFile): SourceFile {
  return createWrappedNode(sf) as unknown as SourceFile;
}
