// Small helpers over raw TypeScript compiler nodes (the hot path walks compiler nodes, not ts-morph
// wrappers, for speed).
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import { SKIP, walkDescendants } from "./walk";

const PARENTHESIZED = ts.SyntaxKind.ParenthesizedExpression;
const AS = ts.SyntaxKind.AsExpression;
const SATISFIES = ts.SyntaxKind.SatisfiesExpression;
const NON_NULL = ts.SyntaxKind.NonNullExpression;
const TYPE_ASSERTION = ts.SyntaxKind.TypeAssertionExpression;

/** Strip parentheses, `as`, `satisfies`, `!` and `<T>x` around an expression. */
export function unwrap(node: ts.Node): ts.Node {
  let n = node;
  for (;;) {
    // `kind` read once: nodes come in many shapes, so each read is a lookup, and this runs on every value read
    const kind = n.kind;
    if (kind === PARENTHESIZED || kind === AS || kind === SATISFIES || kind === NON_NULL || kind === TYPE_ASSERTION) n = (n as ts.ParenthesizedExpression).expression;
    else return n;
  }
}

/** A string literal or a template without substitutions. */
export function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

/** The text of a string literal or a template without substitutions; undefined otherwise. */
function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  return isStringLike(n) ? n.text : undefined;
}

/** A missing node the parser invented for broken input (`id: ` with nothing after). */
export function isMissing(node: ts.Node): boolean {
  return node.pos === node.end || (ts.isIdentifier(node) && node.text === "");
}

const IDENTIFIER = ts.SyntaxKind.Identifier;
const PRIVATE_IDENTIFIER = ts.SyntaxKind.PrivateIdentifier;
const STRING_LITERAL = ts.SyntaxKind.StringLiteral;
const NUMERIC_LITERAL = ts.SyntaxKind.NumericLiteral;
const NO_SUBSTITUTION_TEMPLATE = ts.SyntaxKind.NoSubstitutionTemplateLiteral;
const COMPUTED_PROPERTY_NAME = ts.SyntaxKind.ComputedPropertyName;

/** An identifier's text, read from the node's own field (the `text` getter is a call on every read); the
 *  compiler escapes a leading "__" with one more "_", so those few names take the getter. */
function identifierText(id: ts.Identifier): string {
  const escaped = id.escapedText as string;
  return escaped.charCodeAt(0) === 95 && escaped.charCodeAt(1) === 95 ? id.text : escaped;
}

/** A property name as text (identifier, string, number, or a computed string literal). Every key of
 *  every definition goes through here: one read of the kind, an identifier's text read directly. */
export function propertyNameText(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  switch (name.kind) {
    case IDENTIFIER:
      return identifierText(name as ts.Identifier);
    case PRIVATE_IDENTIFIER:
    case STRING_LITERAL:
    case NUMERIC_LITERAL:
    case NO_SUBSTITUTION_TEMPLATE:
      return (name as ts.StringLiteral).text;
    case COMPUTED_PROPERTY_NAME:
      return stringValue((name as ts.ComputedPropertyName).expression);
  }
  return undefined;
}

/** The node naming a property, for ranges: the string literal inside a computed name. */
export function propertyNameNode(name: ts.PropertyName): ts.Node {
  if (ts.isComputedPropertyName(name)) return unwrap(name.expression);
  return name;
}

/** The last property named `name` of an object literal (later keys win, as at run time); spreads are skipped. */
export function findProperty(obj: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  let found: ts.ObjectLiteralElementLike | undefined;
  for (const p of obj.properties) if (!ts.isSpreadAssignment(p) && propertyNameText(p.name) === name) found = p;
  return found;
}

/** The value expression of a property: the initializer, or the identifier of a shorthand property. */
export function propertyValue(p: ts.ObjectLiteralElementLike | undefined): ts.Expression | undefined {
  if (!p) return undefined;
  if (ts.isPropertyAssignment(p)) return p.initializer;
  if (ts.isShorthandPropertyAssignment(p)) return p.name;
  return undefined;
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

/** The method a call invokes through a property access (`x.flow(...)` → "flow"). */
export function calledMethod(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name) ? identifierText(callee.name) : undefined;
}

/** The expressions a function can return: the arrow's expression body, or every `return x` of its
 *  body (not of nested functions). */
export function returnedExpressions(fn: ts.Node): ts.Expression[] {
  if (!isFunctionLike(fn)) return [];
  const body = fn.body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body as ts.Expression];
  const out: ts.Expression[] = [];
  walkDescendants(body, (n) => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) out.push(n.expression);
      return SKIP;
    }
    return !(isFunctionLike(n) || ts.isClassLike(n));
  });
  return out;
}

/** The name of the const (or let) a value initializes (`const machine = agent.createMachine(...)`),
 *  through parentheses, casts and `await`. */
export function bindingNameNode(value: ts.Node): ts.Identifier | undefined {
  let node = value.parent;
  while (node && (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isAwaitExpression(node) || ts.isNonNullExpression(node))) node = node.parent;
  return node && ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) ? node.name : undefined;
}

/** Whether a node lies inside a function body (not at module level). */
export function isInsideFunction(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (isFunctionLike(p) || ts.isArrowFunction(p) || ts.isClassLike(p)) return true;
  return false;
}

/** Whether a node has a given modifier (export, default, ...). */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return !!mods?.some((m) => m.kind === kind);
}
