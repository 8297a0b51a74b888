// Small helpers over raw TypeScript compiler nodes (the hot path walks compiler nodes, not ts-morph
// wrappers, for speed).
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;

/** Strip parentheses, `as`, `satisfies`, `!` and `<T>x` around an expression. */
export function unwrap(node: ts.Node): ts.Node {
  let n = node;
  for (;;) {
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n) || ts.isTypeAssertionExpression(n)) n = n.expression;
    else return n;
  }
}

/** The text of a string literal or a template without substitutions; undefined otherwise. */
export function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  return undefined;
}

/** A property name as text (identifier, string, number, or a computed string literal). */
export function propertyNameText(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return stringValue(name.expression);
  return undefined;
}

/** The node naming a property, for ranges: the string literal inside a computed name. */
export function propertyNameNode(name: ts.PropertyName): ts.Node {
  if (ts.isComputedPropertyName(name)) return unwrap(name.expression);
  return name;
}

export function isFunctionLike(node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration | ts.FunctionDeclaration {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node);
}

/** The name a call is made by: `f(...)` → "f", `a.b.f(...)` → "f". */
export function calleeName(call: ts.CallExpression): string | undefined {
  const e = unwrap(call.expression);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** The expressions a function can return: the arrow's expression body, or every `return x` of its
 *  body (not of nested functions). */
export function returnedExpressions(fn: ts.Node): ts.Expression[] {
  if (!isFunctionLike(fn)) return [];
  const body = fn.body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body as ts.Expression];
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) out.push(n.expression);
      return;
    }
    if (isFunctionLike(n) || ts.isClassLike(n)) return;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/** Whether a node has a given modifier (export, default, ...). */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return !!mods?.some((m) => m.kind === kind);
}
