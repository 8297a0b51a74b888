// Names written as plain strings where code routes or asserts on them, found by shape alone (library
// analyzers decide what each one names): `case "x":` of a `switch` on `request.name` (or a destructured
// `name`), `request.name === "x"`, `flowId: "x"` / `stepId: "x"` properties and comparisons, and the
// items of an array compared (deepEqual / toEqual) with collected names — `run.calls.map((c) => c.name)`
// or a list the code fills with `calls.push(request.name)`. One walk per parsed file, memoized.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import { lookupDeclaration } from "./resolve/declarations";
import { calleeName, isStringLike, unwrap } from "./util/ts-nodes";
import { walkDescendants } from "./util/walk";

/** What a name property names: `name` (a request), `flowId`, `stepId`. */
export type NameProperty = "name" | "flowId" | "stepId";

export interface NameUse {
  /** The string literal holding the name. */
  literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral;
  property: NameProperty;
  /** How it is written: a case label, a comparison, an object property, an item of an expected list. */
  shape: "case" | "compare" | "property" | "expected";
  /** What the name is compared with: `request.name`, a destructured `name`, `run.calls` (of a
   *  `.map((c) => c.name)`), or the identifier of a collected list. Absent for a property. */
  subject?: ts.Node;
}

/** `list.push(request.name)`: a list filled with names. */
export interface NamePush {
  list: ts.Identifier;
  /** `request.name` or a destructured `name`. */
  subject: ts.Node;
  property: NameProperty;
}

export interface NameScan {
  uses: NameUse[];
  pushes: NamePush[];
}

const PROPERTIES: ReadonlySet<string> = new Set<NameProperty>(["name", "flowId", "stepId"]);
/** Properties that name something wherever they are written (`name:` is too common to count alone). */
const NAMING_KEYS: ReadonlySet<string> = new Set<NameProperty>(["flowId", "stepId"]);
const COMPARISONS: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
const DEEP_EQUAL: ReadonlySet<string> = new Set(["deepEqual", "deepStrictEqual", "notDeepEqual", "notDeepStrictEqual"]);
const MATCHERS: ReadonlySet<string> = new Set(["toEqual", "toStrictEqual"]);

const scans = new WeakMap<ts.SourceFile, NameScan>();

/** Drops the scan of a tree changed in place (a member spliced in: incremental/splice.ts). */
export function forgetNameUses(sf: ts.SourceFile): void {
  scans.delete(sf);
}

export function nameUsesOf(sf: ts.SourceFile): NameScan {
  let scan = scans.get(sf);
  if (!scan) scans.set(sf, (scan = scanFile(sf)));
  return scan;
}

/** The name property an expression reads: `x.name` / `x.flowId` / `x.stepId`, a bare identifier of that
 *  name, or one a parameter destructures from it (`{ name: n }`), through `?? ""`, parentheses and casts. */
function namePropertyOf(expr: ts.Node): NameProperty | undefined {
  const node = stripDefault(expr);
  if (ts.isPropertyAccessExpression(node) && PROPERTIES.has(node.name.text)) return node.name.text as NameProperty;
  if (!ts.isIdentifier(node)) return undefined;
  if (PROPERTIES.has(node.text)) return node.text as NameProperty;
  const decl = lookupDeclaration(node);
  return decl && ts.isParameter(decl) ? destructuredProperty(decl, node.text) : undefined;
}

/** The name property a parameter's `{ name: local }` pattern binds to `local`. */
function destructuredProperty(param: ts.ParameterDeclaration, local: string): NameProperty | undefined {
  if (!ts.isObjectBindingPattern(param.name)) return undefined;
  for (const el of param.name.elements) {
    const key = el.propertyName ? (ts.isIdentifier(el.propertyName) ? el.propertyName.text : undefined) : ts.isIdentifier(el.name) ? el.name.text : undefined;
    if (key !== undefined && PROPERTIES.has(key) && ts.isIdentifier(el.name) && el.name.text === local) return key as NameProperty;
  }
  return undefined;
}

/** `x ?? ""` → `x`, unwrapped. */
function stripDefault(expr: ts.Node): ts.Node {
  let node = unwrap(expr);
  while (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) node = unwrap(node.left);
  return node;
}

function scanFile(sf: ts.SourceFile): NameScan {
  const scan: NameScan = { uses: [], pushes: [] };
  walkDescendants(sf, (node) => {
    switch (node.kind) {
      case ts.SyntaxKind.SwitchStatement:
        readSwitch(node as ts.SwitchStatement, scan);
        break;
      case ts.SyntaxKind.BinaryExpression:
        readComparison(node as ts.BinaryExpression, scan);
        break;
      case ts.SyntaxKind.PropertyAssignment: {
        const p = node as ts.PropertyAssignment;
        const value = unwrap(p.initializer);
        if (ts.isIdentifier(p.name) && NAMING_KEYS.has(p.name.text) && isStringLike(value)) scan.uses.push({ literal: value, property: p.name.text as NameProperty, shape: "property" });
        break;
      }
      case ts.SyntaxKind.CallExpression:
        readCall(node as ts.CallExpression, scan);
        break;
    }
  });
  return scan;
}

function readSwitch(node: ts.SwitchStatement, scan: NameScan): void {
  const property = namePropertyOf(node.expression);
  if (!property) return;
  const subject = stripDefault(node.expression);
  for (const clause of node.caseBlock.clauses) {
    if (!ts.isCaseClause(clause)) continue;
    const label = unwrap(clause.expression);
    if (isStringLike(label)) scan.uses.push({ literal: label, property, shape: "case", subject });
  }
}

function readComparison(node: ts.BinaryExpression, scan: NameScan): void {
  if (!COMPARISONS.has(node.operatorToken.kind)) return;
  const left = unwrap(node.left);
  const right = unwrap(node.right);
  const [literal, other] = isStringLike(right) ? [right, node.left] : isStringLike(left) ? [left, node.right] : [undefined, undefined];
  if (!literal || !other) return;
  const property = namePropertyOf(other);
  if (property) scan.uses.push({ literal, property, shape: "compare", subject: stripDefault(other) });
}

function readCall(call: ts.CallExpression, scan: NameScan): void {
  const callee = unwrap(call.expression);
  // `calls.push(request.name ?? "")`
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "push" && ts.isIdentifier(unwrap(callee.expression)) && call.arguments.length === 1) {
    const property = namePropertyOf(call.arguments[0]!);
    if (property) scan.pushes.push({ list: unwrap(callee.expression) as ts.Identifier, subject: stripDefault(call.arguments[0]!), property });
    return;
  }
  const name = calleeName(call);
  if (!name) return;
  let pair: [ts.Node, ts.Node] | undefined;
  if (DEEP_EQUAL.has(name) && call.arguments.length >= 2) pair = [call.arguments[0]!, call.arguments[1]!];
  else if (MATCHERS.has(name) && ts.isPropertyAccessExpression(callee) && call.arguments.length >= 1) {
    // expect(actual).toEqual(expected), also through `.not` / `.resolves`
    let inner = unwrap(callee.expression);
    while (ts.isPropertyAccessExpression(inner)) inner = unwrap(inner.expression);
    if (ts.isCallExpression(inner) && calleeName(inner) === "expect" && inner.arguments[0]) pair = [inner.arguments[0], call.arguments[0]!];
  }
  if (!pair) return;
  for (const [actual, expected] of [pair, [pair[1], pair[0]] as [ts.Node, ts.Node]]) {
    const list = unwrap(expected);
    if (!ts.isArrayLiteralExpression(list)) continue;
    const collected = collectedNames(actual);
    if (!collected) continue;
    for (const el of list.elements) {
      const item = unwrap(el);
      if (isStringLike(item)) scan.uses.push({ literal: item, property: collected.property, shape: "expected", subject: collected.subject });
    }
  }
}

/** `x.map((c) => c.name)` (also `({ name }) => name`, `function (c) { return c.name }`) → x; a bare
 *  identifier (a list the code fills) → itself, with the property decided by its pushes (name). */
function collectedNames(expr: ts.Node): { subject: ts.Node; property: NameProperty } | undefined {
  const node = unwrap(expr);
  if (ts.isIdentifier(node)) return { subject: node, property: "name" };
  if (!ts.isCallExpression(node) || calleeName(node) !== "map" || !ts.isPropertyAccessExpression(unwrap(node.expression))) return undefined;
  const fn = node.arguments[0] && unwrap(node.arguments[0]);
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || fn.parameters.length === 0) return undefined;
  let body: ts.Node | undefined = fn.body;
  if (ts.isBlock(body)) {
    const only = body.statements.length === 1 ? body.statements[0] : undefined;
    body = only && ts.isReturnStatement(only) ? only.expression : undefined;
  }
  const property = body ? namePropertyOf(body) : undefined;
  if (!property) return undefined;
  return { subject: unwrap((unwrap(node.expression) as ts.PropertyAccessExpression).expression), property };
}

/** The function whose first parameter `subject` reads the name of: `request.name` with `request` that
 *  parameter, or a `name` destructured from it. */
export function nameSourceFunction(subject: ts.Node): ts.SignatureDeclaration | undefined {
  const node = unwrap(subject);
  const id = ts.isPropertyAccessExpression(node) ? unwrap(node.expression) : node;
  if (!ts.isIdentifier(id)) return undefined;
  const decl = lookupDeclaration(id);
  if (!decl || !ts.isParameter(decl) || !ts.isFunctionLike(decl.parent) || decl.parent.parameters[0] !== decl) return undefined;
  if (ts.isPropertyAccessExpression(node)) return ts.isIdentifier(decl.name) && decl.name.text === id.text ? decl.parent : undefined;
  // a destructured `{ name }` or `{ name: n }`
  return destructuredProperty(decl, id.text) ? decl.parent : undefined;
}
