// Parsing a file for analysis: the TypeScript parser (from ts-morph's bundled compiler API) without its
// `setParentNodes` pass, which costs two to three times the parse itself on big files; parent pointers
// are set by one lean walk instead. The ts-morph wrapper (what library analyzers receive) is created
// around the compiler node, without a Project or a program: nothing on this path uses the type checker.
import { createWrappedNode, ts as morphTs, type SourceFile } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter

const forEachChild = ts.forEachChild;
const LAST_TOKEN = ts.SyntaxKind.LastToken;
let currentParent: ts.Node;

function setParent(child: ts.Node): undefined {
  (child as { parent: ts.Node }).parent = currentParent;
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

/** Parse with parent pointers set (what scope lookup and ts-morph need). */
export function parseWithParents(file: string, text: string): ts.SourceFile {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  currentParent = sf;
  forEachChild(sf, setParent, setParentOfEach);
  return sf;
}

/** A ts-morph SourceFile around a parsed compiler SourceFile. */
export function wrapSourceFile(sf: ts.SourceFile): SourceFile {
  return createWrappedNode(sf) as unknown as SourceFile;
}
