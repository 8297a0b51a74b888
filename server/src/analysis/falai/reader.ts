// Reading values of one file the way its definitions are written: strings, lists of strings,
// durations, object literals (with their spreads), all followed through consts and `obj.key` with the
// shared resolver. A definition's parts must live in the definition's own file (their ranges are
// reported there), so a value that resolves into another file reads as unknown here.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import type { ObjectView, Values } from "../resolve/values";
import { lineOfPosition } from "../ranges";
import type { SourceRange } from "../types";
import { isMissing, isStringLike, unwrap } from "../util/ts-nodes";
import { keepShape, shapeFile } from "../util/shapes";
import { parseDuration } from "./duration";
import { keyOf, Props } from "./props";
import { Str, type DurationValue } from "./model";

const MAX_DEPTH = 12;
const SPREAD = ts.SyntaxKind.SpreadAssignment;

/** The one empty list every absent list shares (frozen: a model list is never pushed to once read). */
export const NONE = Object.freeze([]) as unknown as never[];

export class Reader {
  readonly file: string;
  readonly sf: ts.SourceFile;
  private readonly source: string;
  private readonly lineStarts: readonly number[];
  private lineHint = 0;

  constructor(readonly at: Parsed, readonly values: Values) {
    this.file = at.file;
    this.sf = at.sf;
    this.source = at.sf.text;
    this.lineStarts = at.sf.getLineStarts();
  }

  // ---- ranges ---------------------------------------------------------------------------------------

  range(node: ts.Node): SourceRange {
    return this.rangeAt(node.getStart(this.sf), node.getEnd());
  }

  /** The contents of a string literal, without its quotes (tolerates an unterminated literal). */
  contents(node: ts.Node): SourceRange {
    const start = node.getStart(this.sf);
    const end = node.getEnd();
    const quote = this.source[start];
    const closed = end - start >= 2 && this.source[end - 1] === quote;
    return this.rangeAt(Math.min(start + 1, end), closed ? end - 1 : end);
  }

  /** The name of a property key: a string key's contents, else the key itself. */
  keyRange(name: ts.Node): SourceRange {
    return isStringLike(name) ? this.contents(name) : this.range(name);
  }

  /**
   * The range between two offsets: the same numbers as `ranges.rangeAt`, computed with a moving hint
   * because the extractor asks for ranges mostly in source order.
   */
  rangeAt(start: number, end: number): SourceRange {
    const length = this.source.length;
    const s = Math.max(0, Math.min(start, length));
    const e = Math.max(s, Math.min(end, length));
    const startLine = this.lineOf(s);
    const endLine = e === s ? startLine : this.lineOf(e);
    return { start: s, end: e, startLine, startColumn: s - this.lineStarts[startLine]!, endLine, endColumn: e - this.lineStarts[endLine]! };
  }

  /** 1-based line of a node's start. */
  line(node: ts.Node): number {
    return this.lineOf(node.getStart(this.sf)) + 1;
  }

  private lineOf(pos: number): number {
    const starts = this.lineStarts;
    const i = this.lineHint;
    if (starts[i]! <= pos && (i + 1 >= starts.length || pos < starts[i + 1]!)) return i;
    if (i + 1 < starts.length && starts[i + 1]! <= pos && (i + 2 >= starts.length || pos < starts[i + 2]!)) return (this.lineHint = i + 1);
    return (this.lineHint = lineOfPosition(starts, pos));
  }

  // ---- values ---------------------------------------------------------------------------------------

  /** The value of an expression when it lives in this file (identifiers and `obj.key` followed). */
  local(node: ts.Node | undefined): ts.Node | undefined {
    if (!node || isMissing(node)) return undefined;
    const direct = unwrap(node);
    if (!ts.isIdentifier(direct) && !ts.isPropertyAccessExpression(direct)) return direct; // the hot path
    const v = this.values.valueOf(this.at, direct);
    return v && v.at.file === this.file ? v.node : undefined;
  }

  /** The properties of an object literal of this file (identifiers followed), or undefined. */
  props(node: ts.Node | undefined): Props | undefined {
    const e = this.local(node);
    if (!e || !ts.isObjectLiteralExpression(e)) return undefined;
    return new Props(e, this);
  }

  /** Adds an object literal's properties from index `from` on (and its local spreads') to `props`, in
   *  source order. */
  mergeInto(props: Props, obj: ts.ObjectLiteralExpression, from: number, depth: number): void {
    const properties = obj.properties;
    for (let i = from; i < properties.length; i++) {
      const p = properties[i]!;
      const kind = p.kind;
      if (kind === SPREAD) {
        const inner = depth < MAX_DEPTH ? this.local((p as ts.SpreadAssignment).expression) : undefined;
        if (inner && ts.isObjectLiteralExpression(inner)) this.mergeInto(props, inner, 0, depth + 1);
        else props.complete = false;
        continue;
      }
      const name = keyOf(p, kind);
      if (name === undefined) props.complete = false;
      else props.add(name, p);
    }
  }

  /** An object literal of this file, with its spreads merged (later keys win). Entries that come
   *  from another file make the view incomplete. */
  object(node: ts.Node | undefined): ObjectView | undefined {
    if (!node || isMissing(node)) return undefined;
    const view = this.values.object(this.at, node);
    if (!view || view.at.file !== this.file) return undefined;
    if (!view.spread) return view;
    for (const [name, entry] of view.entries) {
      if (entry.at.file === this.file) continue;
      view.entries.delete(name);
      view.complete = false;
    }
    return view;
  }

  str(node: ts.Node | undefined): Str | undefined {
    const e = this.local(node);
    if (!e || !isStringLike(e)) return undefined;
    const range = this.contents(e);
    const unterminated = (e as ts.LiteralLikeNode).isUnterminated === true;
    // one-line literals (nearly all): the literal's range is the contents' plus the quotes, derived on demand
    const literal = range.startLine === range.endLine && !unterminated ? undefined : this.range(e);
    return new Str(e.text, range, literal, unterminated || undefined);
  }

  /** A string or a list of strings (`collect: "nome"` or `collect: ["nome", "empresa"]`), spreads followed. */
  strList(node: ts.Node | undefined, depth = 0): Str[] {
    if (!node) return NONE;
    const e = this.local(node);
    if (!e || depth > MAX_DEPTH) return NONE;
    if (isStringLike(e)) return [this.str(e)!];
    if (!ts.isArrayLiteralExpression(e) || e.elements.length === 0) return NONE;
    const out: Str[] = [];
    for (const el of e.elements) {
      if (ts.isSpreadElement(el)) out.push(...this.strList(el.expression, depth + 1));
      else {
        const s = this.str(el);
        if (s) out.push(s);
      }
    }
    return out;
  }

  /** A text as written: a string, or a template's source (substitutions kept). */
  text(node: ts.Node | undefined): string | undefined {
    const e = this.local(node);
    if (!e) return undefined;
    if (isStringLike(e)) return e.text;
    if (ts.isTemplateExpression(e)) return e.getText(this.sf).slice(1, -1);
    return undefined;
  }

  /** A duration: a string ("24h") or a number of milliseconds. Undefined when it cannot be read
   *  (or is still being typed). */
  duration(node: ts.Node | undefined): DurationValue | undefined {
    const e = this.local(node);
    if (!e) return undefined;
    const full = this.range(e);
    if (isStringLike(e)) return (e as ts.LiteralLikeNode).isUnterminated ? undefined : { text: e.text, ms: parseDuration(e.text), full };
    if (ts.isNumericLiteral(e)) return { text: e.text, ms: parseDuration(Number(e.text)), full };
    if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) {
      return { text: e.getText(this.sf), ms: undefined, full };
    }
    return undefined;
  }

  /** Elements of an array literal of this file (spreads of local arrays flattened); `complete` is false
   *  when some part could not be followed. */
  elements(node: ts.Node | undefined, depth = 0): { items: ts.Node[]; complete: boolean } {
    const e = this.local(node);
    if (!e || !ts.isArrayLiteralExpression(e) || depth > MAX_DEPTH) return { items: [], complete: false };
    const items: ts.Node[] = [];
    let complete = true;
    for (const el of e.elements) {
      if (ts.isOmittedExpression(el)) continue;
      if (ts.isSpreadElement(el)) {
        const inner = this.elements(el.expression, depth + 1);
        items.push(...inner.items);
        if (!inner.complete) complete = false;
      } else items.push(el);
    }
    return { items, complete };
  }

  /** Unwraps parentheses and casts. */
  unwrap(node: ts.Node): ts.Node {
    return unwrap(node);
  }
}

// A Reader and a Props over an empty object literal, kept so their classes' maps outlive each analysis
// (util/shapes.ts). They hold a four-character file and nothing of the user's.
/** The Reader kept for its class's map; other per-analysis classes of the extraction build theirs on it. */
export const keptReader = keepShape(new Reader({ file: shapeFile.fileName, sf: shapeFile }, undefined as unknown as Values));
keepShape(new Props(((shapeFile.statements[0] as ts.ExpressionStatement).expression as ts.ParenthesizedExpression).expression as ts.ObjectLiteralExpression, keptReader));
