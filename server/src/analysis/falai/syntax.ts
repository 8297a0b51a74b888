// Small helpers over the TypeScript compiler AST (the hot path walks compiler nodes, not ts-morph wrappers).
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;

/** Drops wrappers that do not change a value: parentheses, `as`, `satisfies`, `!`, `<T>x`. */
export function strip(node: ts.Node): ts.Node {
  let e = node;
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    else return e;
  }
}

export function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

/** The value of a string literal (after stripping wrappers), or undefined. */
export function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  const e = strip(node);
  return isStringLike(e) ? e.text : undefined;
}

/** The static name of a property key: `a`, `"a"`, `1`, `["a"]`; undefined for computed keys. */
export function propertyName(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return stringValue(name.expression);
  return undefined;
}

/** The last property named `name` in an object literal (later keys win, as at run time). */
export function findProperty(obj: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  let found: ts.ObjectLiteralElementLike | undefined;
  for (const p of obj.properties) {
    if (!ts.isSpreadAssignment(p) && propertyName(p.name) === name) found = p;
  }
  return found;
}

/** The value expression of a property: the initializer, or the identifier of a shorthand property. */
export function propertyValue(p: ts.ObjectLiteralElementLike | undefined): ts.Expression | undefined {
  if (!p) return undefined;
  if (ts.isPropertyAssignment(p)) return p.initializer;
  if (ts.isShorthandPropertyAssignment(p)) return p.name;
  return undefined;
}

/** The name of the method a call invokes through a property access (`x.flow(...)` → "flow"). */
export function calledMethod(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name) ? callee.name.text : undefined;
}

/** A missing node the parser invented for broken input (`id: ` with nothing after). */
export function isMissing(node: ts.Node): boolean {
  return node.pos === node.end || (ts.isIdentifier(node) && node.text === "");
}

/** Every statically named property of an object literal, by name (later keys win). One pass per object. */
export function propertiesOf(obj: ts.ObjectLiteralExpression): Map<string, ts.ObjectLiteralElementLike> {
  const map = new Map<string, ts.ObjectLiteralElementLike>();
  for (const p of obj.properties) {
    if (ts.isSpreadAssignment(p)) continue;
    const name = propertyName(p.name);
    if (name !== undefined) map.set(name, p);
  }
  return map;
}
