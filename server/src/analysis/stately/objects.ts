// Reading object literals the way the runtime would see them: properties, shorthands, methods and
// spreads of statically known objects (followed across consts and imports). What cannot be known makes
// the view incomplete instead of guessing.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { DeclarationResolver, Parsed } from "../resolve/declarations";
import { propertyNameNode, propertyNameText, unwrap } from "../util/ts-nodes";
import type { At } from "./model";

export interface Entry {
  name: string;
  at: Parsed;
  /** The property (assignment, shorthand or method). */
  node: ts.Node;
  nameNode: ts.Node;
  /** The value expression (for a method: the method itself, a function). */
  value: ts.Node;
}

export interface ObjectView extends At {
  entries: Map<string, Entry>;
  complete: boolean;
}

const MAX_DEPTH = 16;

export class Values {
  constructor(readonly resolver: DeclarationResolver) {}

  /** The value an expression stands for, following identifiers; undefined when not static. */
  valueOf(at: Parsed, node: ts.Node): At | undefined {
    const r = this.resolver.resolveExpression(at, node);
    return r?.kind === "value" ? { at: r.at, node: unwrap(r.node) } : undefined;
  }

  /** An object literal's entries (later keys win, as at run time). Undefined when the value is not a
   *  statically known object literal. */
  object(at: Parsed, node: ts.Node | undefined, depth = 0): ObjectView | undefined {
    if (!node || depth > MAX_DEPTH) return undefined;
    const v = this.valueOf(at, node);
    if (!v || !ts.isObjectLiteralExpression(v.node)) return undefined;
    const view: ObjectView = { at: v.at, node: v.node, entries: new Map(), complete: true };
    for (const prop of v.node.properties) {
      if (ts.isSpreadAssignment(prop)) {
        const inner = this.object(v.at, prop.expression, depth + 1);
        if (!inner) {
          view.complete = false;
          continue;
        }
        if (!inner.complete) view.complete = false;
        for (const [k, e] of inner.entries) {
          view.entries.delete(k);
          view.entries.set(k, e);
        }
        continue;
      }
      const name = propertyNameText(prop.name);
      if (name === undefined) {
        view.complete = false;
        continue;
      }
      let value: ts.Node | undefined;
      if (ts.isPropertyAssignment(prop)) value = prop.initializer;
      else if (ts.isShorthandPropertyAssignment(prop)) value = prop.name;
      else if (ts.isMethodDeclaration(prop)) value = prop;
      else {
        view.complete = false; // accessors
        continue;
      }
      view.entries.delete(name);
      view.entries.set(name, { name, at: v.at, node: prop, nameNode: propertyNameNode(prop.name!), value: value ?? prop });
    }
    return view;
  }

  /** A string value, following consts. */
  string(at: Parsed, node: ts.Node | undefined): { text: string; at: Parsed; node: ts.Node } | undefined {
    if (!node) return undefined;
    const v = this.valueOf(at, node);
    if (!v) return undefined;
    if (ts.isStringLiteral(v.node) || ts.isNoSubstitutionTemplateLiteral(v.node)) return { text: v.node.text, at: v.at, node: v.node };
    return undefined;
  }
}
