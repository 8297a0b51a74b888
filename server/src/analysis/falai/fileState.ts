// One pass over a file's compiler AST that records what the extractor needs: scoped bindings (so an
// identifier can be followed to its const / function without the type checker), the names under which
// `@falai/agent` exports are imported, and the method calls worth a look.
import { Node, ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { ExtractContext } from "../library";
import type { SourceRange } from "../types";
import { calledMethod, propertyName, strip } from "./syntax";

/** Methods whose calls may be falai API: builder methods, agent methods, the fake clock. */
const METHODS = new Set(["fields", "flow", "agent", "tool", "action", "turn", "turnStream", "advance"]);

interface Binding {
  scopeStart: number;
  scopeEnd: number;
  /** The value: a const initializer or a function declaration. Absent for parameters, lets, destructuring. */
  value?: ts.Node;
  imported?: boolean;
}

export interface Resolved {
  state: FileState;
  node: ts.Node;
}

/** Follows an identifier imported from another file (implemented by the session). */
export type CrossFileResolver = (from: FileState, id: ts.Identifier) => Resolved | undefined;

const SCOPES = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.SourceFile, ts.SyntaxKind.Block, ts.SyntaxKind.ModuleBlock, ts.SyntaxKind.CaseBlock, ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement, ts.SyntaxKind.ForInStatement, ts.SyntaxKind.CatchClause, ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression, ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor, ts.SyntaxKind.SetAccessor,
]);

const ENVELOPE_KEYS = new Set(["mentions", "extract", "branches", "fields"]);

/** An object with `flows: {...}` (an object, not an agent's flows list) and another understand section. */
function isUnderstandEnvelope(obj: ts.ObjectLiteralExpression): boolean {
  let flows = false;
  let other = false;
  for (const p of obj.properties) {
    if (!ts.isPropertyAssignment(p)) continue;
    const name = propertyName(p.name);
    if (name === "flows") flows = ts.isObjectLiteralExpression(p.initializer);
    else if (name && ENVELOPE_KEYS.has(name)) other = true;
  }
  return flows && other;
}

function createsScope(node: ts.Node): boolean {
  return SCOPES.has(node.kind);
}

export class FileState {
  readonly file: string;
  readonly sf: ts.SourceFile;
  readonly text: string;
  readonly calls: ts.CallExpression[] = [];
  /** Scripted `understand` replies: `{ flows: {...}, mentions, extract, branches, fields }`. */
  readonly envelopes: ts.ObjectLiteralExpression[] = [];
  /** Local names bound to `falai` / `fakeClock` (imports may rename them), and namespace imports. */
  readonly falaiNames = new Set<string>(["falai"]);
  readonly fakeClockNames = new Set<string>(["fakeClock"]);
  readonly namespaces = new Set<string>();
  importsFalai = false;
  private readonly bindings = new Map<string, Binding[]>();
  private readonly lineStarts: readonly number[];

  constructor(readonly ctx: ExtractContext, private readonly crossFile: CrossFileResolver) {
    this.file = ctx.file;
    this.sf = ctx.sourceFile.compilerNode;
    this.text = this.sf.text;
    this.lineStarts = this.sf.getLineStarts();
    this.walk(this.sf, { start: 0, end: this.sf.end });
  }

  range(node: ts.Node): SourceRange {
    return this.at(node.getStart(this.sf), node.getEnd());
  }

  /** The contents of a string literal, without its quotes (tolerates an unterminated literal). */
  contents(node: ts.Node): SourceRange {
    const start = node.getStart(this.sf);
    const end = node.getEnd();
    const quote = this.text[start];
    const closed = end - start >= 2 && this.text[end - 1] === quote;
    return this.at(Math.min(start + 1, end), closed ? end - 1 : end);
  }

  /**
   * The range between two offsets: the same numbers ExtractContext.rangeAt gives (0-based lines, UTF-16
   * columns, from the compiler's line map), computed here with a moving hint because the extractor asks
   * for ranges mostly in source order.
   */
  at(start: number, end: number): SourceRange {
    const length = this.text.length;
    const s = Math.max(0, Math.min(start, length));
    const e = Math.max(s, Math.min(end, length));
    const startLine = this.lineOf(s);
    const endLine = e === s ? startLine : this.lineOf(e);
    return { start: s, end: e, startLine, startColumn: s - this.lineStarts[startLine], endLine, endColumn: e - this.lineStarts[endLine] };
  }

  private lineHint = 0;

  private lineOf(pos: number): number {
    const starts = this.lineStarts;
    let i = this.lineHint;
    if (starts[i] <= pos && (i + 1 >= starts.length || pos < starts[i + 1])) return i;
    if (i + 1 < starts.length && starts[i + 1] <= pos && (i + 2 >= starts.length || pos < starts[i + 2])) return (this.lineHint = i + 1);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    i = lo;
    this.lineHint = i;
    return i;
  }

  /** 1-based line of a node's start. */
  line(node: ts.Node): number {
    return this.sf.getLineAndCharacterOfPosition(node.getStart(this.sf)).line + 1;
  }

  /** The value an identifier stands for: a const initializer or function in scope, or an import's target. */
  resolve(id: ts.Identifier): Resolved | undefined {
    const list = this.bindings.get(id.text);
    if (!list) return undefined;
    let best: Binding | undefined;
    for (const b of list) {
      if (b.scopeStart <= id.pos && id.end <= b.scopeEnd && (!best || b.scopeEnd - b.scopeStart <= best.scopeEnd - best.scopeStart)) best = b;
    }
    if (!best) return undefined;
    if (best.imported) return this.crossFile(this, id);
    return best.value ? { state: this, node: best.value } : undefined;
  }

  /** The ts-morph wrapper of a compiler identifier of this file (for ExtractContext.resolveIdentifier). */
  wrap(id: ts.Identifier): import("ts-morph").Identifier | undefined {
    const node = this.ctx.sourceFile.getDescendantAtPos(id.getStart(this.sf));
    return node && Node.isIdentifier(node) && node.getText() === id.text ? node : undefined;
  }

  private bind(name: string, scope: { start: number; end: number }, binding: Omit<Binding, "scopeStart" | "scopeEnd">): void {
    const list = this.bindings.get(name) ?? [];
    list.push({ scopeStart: scope.start, scopeEnd: scope.end, ...binding });
    this.bindings.set(name, list);
  }

  private bindPattern(name: ts.BindingName, scope: { start: number; end: number }, value?: ts.Node): void {
    if (ts.isIdentifier(name)) {
      this.bind(name.text, scope, { value });
      return;
    }
    for (const el of name.elements) if (!ts.isOmittedExpression(el)) this.bindPattern(el.name, scope);
  }

  private recordImport(node: ts.ImportDeclaration, scope: { start: number; end: number }): void {
    const module = ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : "";
    const fromFalai = module === "@falai/agent";
    if (fromFalai) this.importsFalai = true;
    const clause = node.importClause;
    if (!clause) return;
    if (clause.name) this.bind(clause.name.text, scope, { imported: true });
    const named = clause.namedBindings;
    if (!named) return;
    if (ts.isNamespaceImport(named)) {
      if (fromFalai) this.namespaces.add(named.name.text);
      this.bind(named.name.text, scope, {});
      return;
    }
    for (const el of named.elements) {
      const imported = (el.propertyName ?? el.name).text;
      if (fromFalai && imported === "falai") this.falaiNames.add(el.name.text);
      if (fromFalai && imported === "fakeClock") this.fakeClockNames.add(el.name.text);
      // Library exports are not followed into the library; everything else may be another workspace file.
      this.bind(el.name.text, scope, fromFalai ? {} : { imported: true });
    }
  }

  private walk(node: ts.Node, scope: { start: number; end: number }): void {
    switch (node.kind) {
      case ts.SyntaxKind.VariableDeclaration: {
        const decl = node as ts.VariableDeclaration;
        const isConst = (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
        this.bindPattern(decl.name, scope, isConst && ts.isIdentifier(decl.name) ? decl.initializer : undefined);
        break;
      }
      case ts.SyntaxKind.Parameter:
        this.bindPattern((node as ts.ParameterDeclaration).name, scope);
        break;
      case ts.SyntaxKind.FunctionDeclaration: {
        const fn = node as ts.FunctionDeclaration;
        if (fn.name) this.bind(fn.name.text, scope, { value: fn });
        break;
      }
      case ts.SyntaxKind.ImportDeclaration:
        this.recordImport(node as ts.ImportDeclaration, scope);
        return;
      case ts.SyntaxKind.CallExpression: {
        const method = calledMethod(node as ts.CallExpression);
        if (method && METHODS.has(method)) this.calls.push(node as ts.CallExpression);
        break;
      }
      case ts.SyntaxKind.ObjectLiteralExpression:
        if (isUnderstandEnvelope(node as ts.ObjectLiteralExpression)) this.envelopes.push(node as ts.ObjectLiteralExpression);
        break;
    }
    const inner = createsScope(node) && node !== this.sf ? { start: node.pos, end: node.end } : scope;
    const outer = this.scope;
    this.scope = inner;
    ts.forEachChild(node, this.visitChild);
    this.scope = outer;
  }

  /** The scope of the node being walked (one bound visitor instead of a closure per node). */
  private scope = { start: 0, end: 0 };
  private readonly visitChild = (child: ts.Node): void => this.walk(child, this.scope);

  /** True when `call` is `falai()` under any of the names it is imported as. */
  isFalaiCall(node: ts.Node): boolean {
    const e = strip(node);
    if (!ts.isCallExpression(e)) return false;
    const callee = strip(e.expression);
    if (ts.isIdentifier(callee)) return this.falaiNames.has(callee.text);
    return ts.isPropertyAccessExpression(callee) && callee.name.text === "falai" && ts.isIdentifier(callee.expression) && this.namespaces.has(callee.expression.text);
  }

  isFakeClockCall(node: ts.Node): boolean {
    const e = strip(node);
    if (!ts.isCallExpression(e)) return false;
    const callee = strip(e.expression);
    if (ts.isIdentifier(callee)) return this.fakeClockNames.has(callee.text);
    return ts.isPropertyAccessExpression(callee) && callee.name.text === "fakeClock" && ts.isIdentifier(callee.expression) && this.namespaces.has(callee.expression.text);
  }
}
