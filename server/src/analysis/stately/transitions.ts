// Transition targets in every syntax the runtime accepts: a string, an array, `{ target }` objects,
// and (XState v6) functions returning `{ target, context }` — every returned object literal counts,
// through if/else, ternaries, `??`/`||`/`&&`, early returns and arrow expression bodies.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import { isFunctionLike, returnedExpressions, unwrap } from "../util/ts-nodes";
import type { Text } from "./model";
import type { Values } from "../resolve/values";

export interface ParsedTargets {
  targets: Text[];
  dynamic: boolean;
}

const MAX_DEPTH = 12;

export function parseTransition(values: Values, at: Parsed, node: ts.Node): ParsedTargets {
  const out: ParsedTargets = { targets: [], dynamic: false };
  collect(values, at, node, out, 0, false);
  return out;
}

function collect(values: Values, at: Parsed, raw: ts.Node, out: ParsedTargets, depth: number, returned: boolean): void {
  if (depth > MAX_DEPTH) {
    out.dynamic = true;
    return;
  }
  const node = unwrap(raw);
  if (isNothing(node)) return;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    out.targets.push({ text: node.text, at, node });
    return;
  }
  if (ts.isArrayLiteralExpression(node)) {
    for (const el of node.elements) {
      if (ts.isSpreadElement(el)) out.dynamic = true;
      else collect(values, at, el, out, depth + 1, returned);
    }
    return;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const view = values.object(at, node);
    const target = view?.entries.get("target");
    if (target) collectTargetValue(values, target.at, target.value, out, depth + 1);
    else if (!view?.complete) out.dynamic = true;
    return;
  }
  if (isFunctionLike(node)) {
    for (const expr of returnedExpressions(node)) collect(values, at, expr, out, depth + 1, true);
    return;
  }
  if (ts.isConditionalExpression(node)) {
    collect(values, at, node.whenTrue, out, depth + 1, returned);
    collect(values, at, node.whenFalse, out, depth + 1, returned);
    return;
  }
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      collect(values, at, node.left, out, depth + 1, returned);
      collect(values, at, node.right, out, depth + 1, returned);
      return;
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) {
      collect(values, at, node.right, out, depth + 1, returned);
      return;
    }
    if (op === ts.SyntaxKind.CommaToken) {
      collect(values, at, node.right, out, depth + 1, returned);
      return;
    }
  }
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
    const v = values.valueOf(at, node);
    if (v && v.node !== node) {
      collect(values, v.at, v.node, out, depth + 1, returned);
      return;
    }
  }
  out.dynamic = true;
}

/** The value of a `target` property: strings (or arrays of them, or consts holding them). */
function collectTargetValue(values: Values, at: Parsed, raw: ts.Node, out: ParsedTargets, depth: number): void {
  const node = unwrap(raw);
  if (isNothing(node)) return;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    out.targets.push({ text: node.text, at, node });
    return;
  }
  if (ts.isArrayLiteralExpression(node)) {
    for (const el of node.elements) {
      if (ts.isSpreadElement(el)) out.dynamic = true;
      else collectTargetValue(values, at, el, out, depth + 1);
    }
    return;
  }
  if (ts.isConditionalExpression(node)) {
    collectTargetValue(values, at, node.whenTrue, out, depth + 1);
    collectTargetValue(values, at, node.whenFalse, out, depth + 1);
    return;
  }
  if (depth < MAX_DEPTH && (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node))) {
    const v = values.valueOf(at, node);
    if (v && v.node !== node) {
      collectTargetValue(values, v.at, v.node, out, depth + 1);
      return;
    }
  }
  out.dynamic = true;
}

function isNothing(node: ts.Node): boolean {
  return (
    node.kind === ts.SyntaxKind.NullKeyword ||
    node.kind === ts.SyntaxKind.UndefinedKeyword ||
    (ts.isIdentifier(node) && node.text === "undefined") ||
    ts.isVoidExpression(node) ||
    node.kind === ts.SyntaxKind.FalseKeyword
  );
}
