// A structural edit (anything but a string's or a comment's contents) inside one member of an object
// literal: that member alone is parsed again, standing alone but at its own offsets, and spliced into the
// tree in place of the old one (patch.ts `spliceMember`). A keystroke in a state of a 10,000-line machine
// then parses that state's member, not the file: TypeScript's own incremental parser reuses statements
// and list elements but never object literal members, and a machine is one object literal.
//
// The splice must give the tree a fresh parse gives, so it is refused (the file is parsed again) unless:
// the old tree had no parse errors; the new member parses alone without any, as exactly one member
// ending where the unchanged text resumes, with the same context flags (await / yield, JavaScript file)
// as the old one; no ancestor between the member and the file is a place the parser reads speculatively
// (parentheses that might be arrow parameters, `<` that might open type arguments, parameters, JSX, …:
// only the kinds listed below are allowed; the member itself is parsed with the file's name, so as JSX
// where the file is); and neither text holds `await`, `yield` or `import` (top-level
// await and `import.meta` change how the whole file is read). Outer members are tried when an inner one
// parses but is refused (a comma typed between two members of an inner object re-reads the member holding
// it); one that does not parse stops the search (the outer ones hold the same broken text).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { TextChange } from "./edit";

type Member = ts.ObjectLiteralElementLike;

/** One member replaced: old [start, oldEnd) — the member's full range — became new [start, newEnd). */
export interface MemberSplice {
  start: number;
  oldEnd: number;
  newEnd: number;
  delta: number;
  old: Member;
  /** The member parsed alone, at its offsets in the new text; parents not set yet. */
  replacement: Member;
  /** `// @ts-…` directives found in the new member's text. */
  directives: ReadonlyArray<{ range: { pos: number; end: number } }>;
}

const K = ts.SyntaxKind;
/** Ancestors the parser never reads speculatively around an object literal member. */
const PLAIN_ANCESTORS: ReadonlySet<ts.SyntaxKind> = new Set([
  K.ObjectLiteralExpression,
  K.PropertyAssignment,
  K.ShorthandPropertyAssignment,
  K.SpreadAssignment,
  K.ArrayLiteralExpression,
  K.SpreadElement,
  K.CallExpression,
  K.NewExpression,
  K.PropertyAccessExpression,
  K.SatisfiesExpression,
  K.AsExpression,
  K.ConditionalExpression,
  K.BinaryExpression,
  K.VariableDeclaration,
  K.VariableDeclarationList,
  K.VariableStatement,
  K.ExportAssignment,
  K.ReturnStatement,
  K.ExpressionStatement,
  K.AwaitExpression,
  K.IfStatement,
  K.ForOfStatement,
  K.SwitchStatement,
  K.CaseBlock,
  K.CaseClause,
  K.DefaultClause,
  K.TryStatement,
  K.CatchClause,
  K.ThrowStatement,
  K.Block,
  K.ArrowFunction,
  K.FunctionDeclaration,
  K.FunctionExpression,
  K.MethodDeclaration,
  K.SourceFile,
]);
/** Binary operators whose left side could instead be read as a call with type arguments (`a < b > (c)`). */
const ANGLE_OPERATORS: ReadonlySet<ts.SyntaxKind> = new Set([K.LessThanToken, K.LessThanLessThanToken]);
/** Context flags of a node: how the parser was reading around it (await, yield, JavaScript, …). */
const CONTEXT_FLAGS = ts.NodeFlags.ContextFlags;
const UNSAFE_WORDS = /\b(?:await|yield|import)\b/;
/** A member's new text that does not parse on its own. */
const BROKEN = Symbol("broken");

/** The splice that turns `sf` (the old text, parsed) into a tree of `newText`, or undefined. */
export function memberSplice(sf: ts.SourceFile, newText: string, change: TextChange): MemberSplice | undefined {
  const file = sf as ts.SourceFile & { parseDiagnostics: unknown[]; jsDocDiagnostics?: unknown[] };
  if (file.parseDiagnostics.length || file.jsDocDiagnostics?.length) return undefined;
  const members = membersAround(sf, change);
  const delta = change.newEnd - change.oldEnd;
  for (let i = members.length - 1; i >= 0; i--) {
    const old = members[i]!;
    if (!plainAncestry(old)) continue;
    const newEnd = old.end + delta;
    const oldText = sf.text.slice(old.pos, old.end);
    const text = newText.slice(old.pos, newEnd);
    if (UNSAFE_WORDS.test(text) || UNSAFE_WORDS.test(oldText)) continue;
    const parsed = parseAlone(sf, old, text);
    // broken syntax inside this member is inside every member around it too: the file is parsed again
    // (so a keystroke that breaks the code costs one member's parse more, not one per enclosing member)
    if (parsed === BROKEN) return undefined;
    if (!parsed || parsed.member.end !== newEnd) continue;
    return { start: old.pos, oldEnd: old.end, newEnd, delta, old, replacement: parsed.member, directives: parsed.directives };
  }
  return undefined;
}

/** The object literal members whose full range holds the change, outermost first. */
function membersAround(sf: ts.SourceFile, change: TextChange): Member[] {
  const out: Member[] = [];
  let node: ts.Node = sf;
  for (;;) {
    let inner: ts.Node | undefined;
    ts.forEachChild(node, (child) => {
      if (child.pos <= change.start && child.end >= change.oldEnd) {
        inner = child;
        return true;
      }
      return child.pos > change.oldEnd ? true : undefined;
    });
    if (!inner) return out;
    if (node.kind === K.ObjectLiteralExpression) out.push(inner as Member);
    node = inner;
  }
}

function plainAncestry(member: Member): boolean {
  for (let n: ts.Node | undefined = member.parent; n; n = n.parent) {
    if (!PLAIN_ANCESTORS.has(n.kind)) return false;
    if (n.kind === K.BinaryExpression && ANGLE_OPERATORS.has((n as ts.BinaryExpression).operatorToken.kind)) return false;
  }
  return true;
}

/**
 * The member's new text parsed alone: spaces up to just before its offset, then a prefix that gives the
 * parser the old member's context (`x={`, inside an async arrow or a generator when the old member was
 * read in one), the member, and what closes the prefix. BROKEN when that has parse errors; undefined
 * unless it is exactly one member with the old member's context flags.
 */
function parseAlone(sf: ts.SourceFile, old: Member, text: string): { member: Member; directives: MemberSplice["directives"] } | typeof BROKEN | undefined {
  const context = old.flags & CONTEXT_FLAGS;
  const awaits = (context & ts.NodeFlags.AwaitContext) !== 0;
  const yields = (context & ts.NodeFlags.YieldContext) !== 0;
  const [open, close] = yields ? [`${awaits ? "async " : ""}function*g(){x={`, "}}"] : awaits ? ["async()=>x={", "}"] : ["x={", "}"];
  if (old.pos < open.length) return undefined;
  const source = `${" ".repeat(old.pos - open.length)}${open}${text}${close}`;
  const alone = ts.createSourceFile(sf.fileName, source, sf.languageVersion, false, scriptKindOf(sf)) as ts.SourceFile & { parseDiagnostics: unknown[]; jsDocDiagnostics?: unknown[]; commentDirectives?: MemberSplice["directives"] };
  if (alone.parseDiagnostics.length || alone.jsDocDiagnostics?.length) return BROKEN;
  const object = objectOf(alone, yields, awaits);
  if (!object || object.properties.length !== 1 || object.properties.hasTrailingComma) return undefined;
  const member = object.properties[0]!;
  if (member.pos !== old.pos || (member.flags & CONTEXT_FLAGS) !== context) return undefined;
  return { member, directives: alone.commentDirectives ?? [] };
}

/** The object literal of `x={…}` in the standalone parse. */
function objectOf(alone: ts.SourceFile, yields: boolean, awaits: boolean): ts.ObjectLiteralExpression | undefined {
  let stmt: ts.Statement | undefined = alone.statements[0];
  if (alone.statements.length !== 1 || !stmt) return undefined;
  if (yields) {
    const body = ts.isFunctionDeclaration(stmt) ? stmt.body : undefined;
    stmt = body?.statements.length === 1 ? body.statements[0] : undefined;
  }
  if (!stmt || !ts.isExpressionStatement(stmt)) return undefined;
  let expr: ts.Node = stmt.expression;
  if (awaits && !yields) expr = ts.isArrowFunction(expr) ? expr.body : expr;
  return ts.isBinaryExpression(expr) && ts.isObjectLiteralExpression(expr.right) ? expr.right : undefined;
}

function scriptKindOf(sf: ts.SourceFile): ts.ScriptKind | undefined {
  return (sf as ts.SourceFile & { scriptKind?: ts.ScriptKind }).scriptKind;
}
