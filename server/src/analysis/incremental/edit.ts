// What an edit did to a parsed file, when that can be told without parsing again: the text between one
// string literal's quotes changed (no quote, backslash or line break typed or removed), or the body of
// one comment changed (no line break, no comment delimiter). Either way the syntax tree keeps its shape:
// the parser would build the same nodes, only one literal's text and the positions after the edit differ
// (patch.ts applies that). Anything else is undefined: the file is parsed again.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter

/** Where two texts differ: old [start, oldEnd) became new [start, newEnd). */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

interface EditBase extends TextChange {
  /** newEnd - oldEnd: how far everything after the edit moved. */
  delta: number;
  /** The innermost node whose full range holds the edit (the literal itself for a literal edit). */
  container: ts.Node;
}

/** Inside one string literal's contents. */
export interface LiteralEdit extends EditBase {
  kind: "literal";
  literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral;
  /** The literal's new contents (also its value: nothing to unescape). */
  value: string;
}

/** Inside one comment's body. `topLevel`: the comment sits between top-level statements (or after the
 *  last), outside every node's own text. */
export interface CommentEdit extends EditBase {
  kind: "comment";
  topLevel: boolean;
}

export type AstEdit = LiteralEdit | CommentEdit;

/** The one region where the texts differ (common prefix and suffix removed); undefined when equal. */
export function textChange(oldText: string, newText: string): TextChange | undefined {
  const oldLength = oldText.length;
  const newLength = newText.length;
  const limit = Math.min(oldLength, newLength);
  let start = 0;
  while (start < limit && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  if (start === oldLength && start === newLength) return undefined;
  let suffix = 0;
  const maxSuffix = limit - start;
  while (suffix < maxSuffix && oldText.charCodeAt(oldLength - 1 - suffix) === newText.charCodeAt(newLength - 1 - suffix)) suffix++;
  return { start, oldEnd: oldLength - suffix, newEnd: newLength - suffix };
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** How the change touches the parsed old text, when it keeps the tree's shape. */
export function classifyEdit(sf: ts.SourceFile, newText: string, change: TextChange): AstEdit | undefined {
  const { start, oldEnd, newEnd } = change;
  const oldText = sf.text;
  const typed = newText.slice(start, newEnd);
  const removed = oldText.slice(start, oldEnd);
  if (LINE_BREAK.test(typed) || LINE_BREAK.test(removed)) return undefined;
  if ((sf as ts.SourceFile & { parseDiagnostics: unknown[] }).parseDiagnostics.length) return undefined; // error recovery may read the same text differently
  const node = deepestContaining(sf, start, oldEnd);
  const delta = newEnd - oldEnd;
  if (node.kind === ts.SyntaxKind.StringLiteral || node.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
    return literalEdit(node as ts.StringLiteral | ts.NoSubstitutionTemplateLiteral, sf, newText, change, delta);
  }
  return commentEdit(sf, node, newText, change, delta);
}

function literalEdit(literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral, sf: ts.SourceFile, newText: string, change: TextChange, delta: number): LiteralEdit | undefined {
  const oldText = sf.text;
  const tokenStart = literal.getStart(sf);
  const quote = oldText.charCodeAt(tokenStart);
  const closed = literal.end - tokenStart >= 2 && oldText.charCodeAt(literal.end - 1) === quote;
  if (!closed || change.start < tokenStart + 1 || change.oldEnd > literal.end - 1) return undefined;
  const value = newText.slice(tokenStart + 1, literal.end - 1 + delta);
  // nothing to unescape, nothing that would end the literal or open a substitution
  if (value.includes("\\") || value.includes(String.fromCharCode(quote)) || (quote === 96 && value.includes("${"))) return undefined;
  return { kind: "literal", literal, value, ...change, delta, container: literal };
}

function commentEdit(sf: ts.SourceFile, node: ts.Node, newText: string, change: TextChange, delta: number): CommentEdit | undefined {
  const comment = commentAround(sf, node, change);
  if (!comment) return undefined;
  const oldText = sf.text;
  const multi = comment.kind === ts.SyntaxKind.MultiLineCommentTrivia;
  const bodyEnd = multi ? comment.end - 2 : comment.end;
  if (oldText.startsWith("/**", comment.start) || change.start < comment.start + 2 || change.oldEnd > bodyEnd) return undefined; // JSDoc is parsed
  if (multi && (!oldText.startsWith("*/", comment.end - 2) || newText.slice(comment.start + 2, bodyEnd + delta).includes("*/"))) return undefined;
  // a `// @ts-…` directive is read by the parser (sf.commentDirectives): typing into one is parsed again
  if (oldText.slice(comment.start, comment.end).includes("@ts-") || newText.slice(comment.start, comment.end + delta).includes("@ts-")) return undefined;
  return { kind: "comment", topLevel: isTopLevelTrivia(sf, comment), ...change, delta, container: node };
}

/** The innermost node whose full range (leading trivia included) holds the change. */
function deepestContaining(sf: ts.SourceFile, start: number, end: number): ts.Node {
  let node: ts.Node = sf;
  for (;;) {
    let inner: ts.Node | undefined;
    ts.forEachChild(node, (child) => {
      if (child.pos <= start && child.end >= end && child.end > start) {
        inner = child;
        return true;
      }
      return child.pos > end ? true : undefined;
    });
    if (!inner) return node;
    node = inner;
  }
}

interface CommentToken {
  kind: ts.SyntaxKind;
  start: number;
  end: number;
}

/** The comment token holding the change, scanning from the last child of `node` that ends before it. */
function commentAround(sf: ts.SourceFile, node: ts.Node, change: TextChange): CommentToken | undefined {
  let from = node.pos;
  ts.forEachChild(node, (child) => {
    if (child.end <= change.start) from = child.end;
    else return true;
    return undefined;
  });
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, sf.languageVariant, sf.text, undefined, from, node.end - from);
  for (;;) {
    const kind = scanner.scan();
    const start = scanner.getTokenStart();
    const end = scanner.getTokenEnd();
    if (kind === ts.SyntaxKind.EndOfFileToken || start > change.start) return undefined;
    if (end < change.start) {
      // a token whose meaning depends on context (a regex, a template's rest): do not guess
      if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken || kind === ts.SyntaxKind.CloseBraceToken || kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) return undefined;
      continue;
    }
    const isComment = kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia;
    return isComment && change.oldEnd <= end ? { kind, start, end } : undefined;
  }
}

/** A comment before the first token of a top-level statement, or after the last statement. */
function isTopLevelTrivia(sf: ts.SourceFile, comment: CommentToken): boolean {
  for (const stmt of sf.statements) {
    if (stmt.end <= comment.start) continue;
    return stmt.pos <= comment.start && comment.end <= stmt.getStart(sf);
  }
  return true;
}

/** Where an AstEdit happened: what the outputs of the file's previous analysis are moved past (shift.ts). */
export interface EditPlace {
  edit: AstEdit;
  /** 0-based line of the edit in the old text (the same in the new one). */
  line: number;
  file: string;
}
