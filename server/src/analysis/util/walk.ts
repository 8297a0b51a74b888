// Walking a syntax tree without recursion. A file may nest expressions thousands of levels deep (a long
// prompt built with `+` is one binary expression per term, each the left operand of the next), and a
// recursive walk then overflows the stack and loses the file's analysis. These walks keep their own
// stack, so depth costs memory, not call frames.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter

/** Returned by a visitor: do not walk this node's children. */
export const SKIP = false;

/**
 * Every node under `root` (not `root` itself), parents before children, in source order: what a
 * recursive `ts.forEachChild` walk visits, in the same order. `visit` returning `SKIP` (false) leaves
 * that node's children out.
 */
export function walkDescendants(root: ts.Node, visit: (node: ts.Node) => boolean | void): void {
  const stack: ts.Node[] = [];
  pushChildren(root, stack);
  while (stack.length) {
    const node = stack.pop()!;
    if (visit(node) !== SKIP) pushChildren(node, stack);
  }
}

let target: ts.Node[] = [];
/** A module function, not a closure made per node (util/shapes.ts); `target` is set right before each
 *  use, and the callback runs before anything else can walk. */
function pushChild(child: ts.Node): undefined {
  target.push(child);
  return undefined;
}

/** `node`'s children onto the stack, last first (so the first is popped first). */
function pushChildren(node: ts.Node, stack: ts.Node[]): void {
  const from = stack.length;
  target = stack;
  ts.forEachChild(node, pushChild);
  // reverse the slice just pushed
  for (let i = from, j = stack.length - 1; i < j; i++, j--) {
    const t = stack[i]!;
    stack[i] = stack[j]!;
    stack[j] = t;
  }
}
