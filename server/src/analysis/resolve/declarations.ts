// Follows identifiers to their values without the type checker: lexical scopes of the file, imports
// (named, default, namespace), re-exports (`export { x } from`, `export *`), default exports and
// variable initializers that are themselves identifiers. Anything else (a parameter, a destructured
// binding, a value computed at run time) is "not statically known" and resolves to undefined.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import { hasModifier, unwrap } from "../util/ts-nodes";
import { keepShape, shapeFile } from "../util/shapes";

export interface Parsed {
  file: string;
  sf: ts.SourceFile;
}

export interface ResolveHost {
  /** The parsed file (recorded as a dependency of the analysis asking), or undefined when missing. */
  parsed(file: string): Parsed | undefined;
  /** A workspace file for an import specifier; undefined for libraries and unknown modules. */
  resolveModule(fromFile: string, specifier: string): string | undefined;
}

export type Resolution =
  /** A value: an expression (object literal, call, string, arrow...) or a function/class declaration. */
  | { kind: "value"; at: Parsed; node: ts.Node }
  /** Something imported from a module that is not followed (a library): name is "default" or "*" for
   *  default and namespace imports. */
  | { kind: "library"; module: string; name: string }
  /** `import * as ns from "./file"`: property accesses on it resolve to that file's exports. */
  | { kind: "namespace"; at: Parsed };

/** A value answer. Every one is made here, so that the one kept below keeps their map alive between
 *  analyses (util/shapes.ts). */
function valueAt(at: Parsed, node: ts.Node): Resolution {
  return { kind: "value", at, node };
}
keepShape(valueAt({ file: shapeFile.fileName, sf: shapeFile }, shapeFile));

const MAX_DEPTH = 24;
// Kinds the scope lookup switches on, read once from ts-morph's SyntaxKind (case labels are evaluated per test).
const { SourceFile, Block, ModuleBlock, CaseClause, DefaultClause, ForStatement, ForOfStatement, ForInStatement, CatchClause } = ts.SyntaxKind;
const scopeCache = new WeakMap<ts.Node, Map<string, ts.Node>>();

export class DeclarationResolver {
  constructor(private readonly host: ResolveHost) {}

  /** Follow an identifier to the value it names. */
  resolveIdentifier(at: Parsed, id: ts.Identifier, depth = 0): Resolution | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const decl = lookupDeclaration(id);
    if (!decl) return undefined;
    return this.resolveDeclaration(at, decl, depth + 1);
  }

  /** Follow an expression to its value: identifiers and `ns.member` are followed, anything else is
   *  its own value. */
  resolveExpression(at: Parsed, expr: ts.Node, depth = 0): Resolution | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const node = unwrap(expr);
    if (ts.isIdentifier(node)) {
      if (node.text === "undefined") return valueAt(at, node);
      return this.resolveIdentifier(at, node, depth + 1);
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(unwrap(node.expression))) {
      const base = this.resolveExpression(at, node.expression, depth + 1);
      if (base?.kind === "namespace") return this.resolveExport(base.at, node.name.text, depth + 1);
      if (base?.kind === "library") return { kind: "library", module: base.module, name: `${base.name}.${node.name.text}` };
    }
    return valueAt(at, node);
  }

  /** The value a module exports under `name` ("default" for the default export). */
  resolveExport(at: Parsed, name: string, depth = 0, seen = new Set<string>()): Resolution | undefined {
    if (depth > MAX_DEPTH || seen.has(`${at.file}\0${name}`)) return undefined;
    seen.add(`${at.file}\0${name}`);
    const starSources: string[] = [];
    for (const stmt of at.sf.statements) {
      if (ts.isVariableStatement(stmt) && hasModifier(stmt, ts.SyntaxKind.ExportKeyword)) {
        for (const d of stmt.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.name.text === name) return this.resolveDeclaration(at, d, depth + 1);
        }
      } else if ((ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt)) && hasModifier(stmt, ts.SyntaxKind.ExportKeyword)) {
        const isDefault = hasModifier(stmt, ts.SyntaxKind.DefaultKeyword);
        if ((isDefault && name === "default") || (!isDefault && stmt.name?.text === name)) return valueAt(at, stmt);
      } else if (ts.isExportAssignment(stmt) && !stmt.isExportEquals && name === "default") {
        return this.resolveExpression(at, stmt.expression, depth + 1);
      } else if (ts.isExportDeclaration(stmt) && !stmt.isTypeOnly) {
        const spec = stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier) ? stmt.moduleSpecifier.text : undefined;
        const clause = stmt.exportClause;
        if (!clause) {
          if (spec && name !== "default") starSources.push(spec);
          continue;
        }
        if (ts.isNamespaceExport(clause)) {
          if (clause.name.text === name && spec) {
            const target = this.fileFor(at, spec);
            if (target) return { kind: "namespace", at: target };
          }
          continue;
        }
        for (const el of clause.elements) {
          if (el.name.text !== name) continue;
          const local = (el.propertyName ?? el.name).text;
          if (spec) {
            const target = this.fileFor(at, spec);
            if (!target) return libraryOrUndefined(spec, local);
            return this.resolveExport(target, local, depth + 1, seen);
          }
          const decl = lookupInScope(at.sf, local);
          return decl ? this.resolveDeclaration(at, decl, depth + 1) : undefined;
        }
      }
    }
    for (const spec of starSources) {
      const target = this.fileFor(at, spec);
      const found = target && this.resolveExport(target, name, depth + 1, seen);
      if (found) return found;
    }
    return undefined;
  }

  private resolveDeclaration(at: Parsed, decl: ts.Node, depth: number): Resolution | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isVariableDeclaration(decl)) {
      if (!decl.initializer) return undefined;
      // `let` / `var` may be reassigned later: only const bindings are statically known.
      if (!(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
      return this.resolveExpression(at, decl.initializer, depth + 1);
    }
    if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isEnumDeclaration(decl)) return valueAt(at, decl);
    if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isNamespaceImport(decl)) {
      const importDecl = ts.isImportSpecifier(decl) ? decl.parent.parent.parent : ts.isImportClause(decl) ? decl.parent : decl.parent.parent;
      const spec = ts.isStringLiteral(importDecl.moduleSpecifier) ? importDecl.moduleSpecifier.text : undefined;
      if (!spec) return undefined;
      const imported = ts.isImportSpecifier(decl) ? (decl.propertyName ?? decl.name).text : ts.isImportClause(decl) ? "default" : "*";
      const target = this.fileFor(at, spec);
      if (!target) return libraryOrUndefined(spec, imported);
      if (imported === "*") return { kind: "namespace", at: target };
      return this.resolveExport(target, imported, depth + 1);
    }
    return undefined;
  }

  private fileFor(at: Parsed, specifier: string): Parsed | undefined {
    const file = this.host.resolveModule(at.file, specifier);
    return file ? this.host.parsed(file) : undefined;
  }
}

/** Imports from modules we do not follow keep their origin (so `setupAgent` is known to come from the
 *  library even though the library's source is never read). */
function libraryOrUndefined(spec: string, name: string): Resolution | undefined {
  if (spec.startsWith(".") || spec.startsWith("/")) return undefined;
  return { kind: "library", module: spec, name };
}

/** The declaration an identifier refers to, walking its lexical scopes outwards. */
export function lookupDeclaration(id: ts.Identifier): ts.Node | undefined {
  const name = id.text;
  let node: ts.Node | undefined = id.parent;
  while (node) {
    const found = lookupInScope(node, name);
    if (found) return found;
    node = node.parent;
  }
  return undefined;
}

/** The declaration of `name` made directly in a scope node, if any. Parameters and destructured
 *  bindings are returned as themselves (they shadow, but are not statically known). */
function lookupInScope(scope: ts.Node, name: string): ts.Node | undefined {
  // one read of `kind` and a switch: this runs for every ancestor of every identifier followed
  switch (scope.kind) {
    case SourceFile:
    case Block:
    case ModuleBlock:
    case CaseClause:
    case DefaultClause: {
      let map = scopeCache.get(scope);
      if (!map) {
        map = declarationsOf((scope as ts.Block).statements);
        scopeCache.set(scope, map);
      }
      return map.get(name);
    }
    case ForStatement:
    case ForOfStatement:
    case ForInStatement: {
      const init = (scope as ts.ForStatement).initializer;
      if (init && ts.isVariableDeclarationList(init)) for (const d of init.declarations) if (bindsName(d.name, name)) return d;
      return undefined;
    }
    case CatchClause: {
      const d = (scope as ts.CatchClause).variableDeclaration;
      return d && bindsName(d.name, name) ? d : undefined;
    }
  }
  if (ts.isFunctionLike(scope)) {
    for (const p of scope.parameters) if (bindsName(p.name, name)) return p;
    if ((ts.isFunctionExpression(scope) || ts.isFunctionDeclaration(scope)) && scope.name?.text === name) return scope;
  }
  return undefined;
}

function declarationsOf(statements: ts.NodeArray<ts.Statement>): Map<string, ts.Node> {
  const map = new Map<string, ts.Node>();
  for (const stmt of statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) addFirst(map, d.name.text, d);
        else for (const n of boundNames(d.name)) addFirst(map, n, d.name);
      }
    } else if ((ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt) || ts.isEnumDeclaration(stmt)) && stmt.name) {
      addFirst(map, stmt.name.text, stmt);
    } else if (ts.isImportDeclaration(stmt) && stmt.importClause) {
      const clause = stmt.importClause;
      if (clause.name) addFirst(map, clause.name.text, clause);
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) addFirst(map, nb.name.text, nb);
      else if (nb) for (const el of nb.elements) addFirst(map, el.name.text, el);
    }
  }
  return map;
}

/** The first declaration of a name wins (a module function, not a closure made per call: util/shapes.ts). */
function addFirst(map: Map<string, ts.Node>, name: string, declaration: ts.Node): void {
  if (!map.has(name)) map.set(name, declaration);
}

function bindsName(binding: ts.BindingName, name: string): boolean {
  return boundNames(binding).includes(name);
}

function boundNames(binding: ts.BindingName): string[] {
  if (ts.isIdentifier(binding)) return [binding.text];
  const out: string[] = [];
  for (const el of binding.elements) {
    if (ts.isOmittedExpression(el)) continue;
    out.push(...boundNames(el.name));
  }
  return out;
}
