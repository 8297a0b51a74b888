// Where a local const is used: every identifier of its scope that refers to it, with the node each use
// sits in once parentheses and casts are stripped. What eval code does with a list or an executors object
// (fill it, read it, hand it on) decides whether the analysis can say what it holds.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import { lookupDeclaration } from "../resolve/declarations";

/** A const bound to a plain identifier, declared by a statement (module, block, case clause). */
export function constDeclarationOf(id: ts.Identifier): ts.VariableDeclaration | undefined {
  const decl = lookupDeclaration(id);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return undefined;
  if (!(decl.parent.flags & ts.NodeFlags.Const) || !ts.isVariableStatement(decl.parent.parent)) return undefined;
  return decl;
}

/** The identifiers of the declaration's scope that refer to it (its own name excluded); a property name
 *  that merely spells the same word is no use. The walk is iterative (deep expressions cannot overflow). */
export function usesOf(decl: ts.VariableDeclaration): ts.Identifier[] {
  const name = (decl.name as ts.Identifier).text;
  const scope = decl.parent.parent.parent;
  const out: ts.Identifier[] = [];
  const stack: ts.Node[] = [scope];
  while (stack.length) {
    const node = stack.pop()!;
    if (ts.isIdentifier(node)) {
      if (node.text === name && node !== decl.name && !isPropertyNameOnly(node) && lookupDeclaration(node) === decl) out.push(node);
      continue;
    }
    ts.forEachChild(node, (child) => {
      stack.push(child);
    });
  }
  return out;
}

/** `x.name`, `{ name: ... }`, `{ name: local }` in a pattern, a method name: the word is a key, not a use. */
function isPropertyNameOnly(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p)) return p.name === id;
  if (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p)) return p.name === id;
  if (ts.isBindingElement(p)) return p.propertyName === id;
  return false;
}

/** The node a use sits in, above any parentheses, casts and `!`. */
export function useParent(node: ts.Node): { parent: ts.Node; child: ts.Node } {
  let child = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isNonNullExpression(parent) || ts.isTypeAssertionExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  return { parent, child };
}
