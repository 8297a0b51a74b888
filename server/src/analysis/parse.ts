// Parsing a file for analysis: the TypeScript parser (from ts-morph's bundled compiler API) without its
// `setParentNodes` pass, which costs two to three times the parse itself on big files; parent pointers
// are set by one lean walk instead. The ts-morph wrapper (what library analyzers receive) is created
// around the compiler node, without a Project or a program: nothing on this path uses the type checker.
import { createWrappedNode, ts as morphTs, type SourceFile } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter

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

function setParent(child: ts.Node): undefined {
  (child as { parent: ts.Node }).parent = currentParent;
  if (child.kind === CALL) currentIndex.calls.push(child as ts.CallExpression);
  else if (child.kind === PROPERTY_ASSIGNMENT && ((child as ts.PropertyAssignment).name as ts.Identifier).escapedText === "flows") currentIndex.flowsProperties.push(child as ts.PropertyAssignment);
  if (child.kind > LAST_TOKEN) {
    const saved = currentParent;
    currentParent = child;
    forEachChild(child, setParent, setParentOfEach);
    currentParent = saved;
  }
  return undefined;
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
  forEachChild(sf, setParent, setParentOfEach);
  return sf;
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
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) found.calls.push(node);
      else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === "flows") found.flowsProperties.push(node);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(sf, visit);
    indexes.set(sf, (index = found));
  }
  return index;
}

/** A ts-morph SourceFile around a parsed compiler SourceFile. */
export function wrapSourceFile(sf: ts.SourceFile): SourceFile {
  return createWrappedNode(sf) as unknown as SourceFile;
}
