// Values as the runtime would see them, for both libraries' extractors: identifiers followed to consts
// and imports, `obj.key` into object-literal consts, object literals read with their shorthands, methods
// and spreads of statically known objects. What cannot be known makes a view incomplete instead of
// guessing.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { DeclarationResolver, Parsed } from "./declarations";
import { findProperty, isStringLike, propertyNameNode, propertyNameText, propertyValue, unwrap } from "../util/ts-nodes";

/** A node in some file. */
export interface At {
  at: Parsed;
  node: ts.Node;
}

/** A string written in the source (a key, a target, a name), with the node holding it. */
export interface Text extends At {
  text: string;
}

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
  /** Some entries came from a spread of an object in another file. */
  spread?: boolean;
}

const MAX_DEPTH = 16;
const SPREAD = ts.SyntaxKind.SpreadAssignment;
const PROPERTY_ASSIGNMENT = ts.SyntaxKind.PropertyAssignment;
const SHORTHAND = ts.SyntaxKind.ShorthandPropertyAssignment;
const METHOD = ts.SyntaxKind.MethodDeclaration;

export class Values {
  /** Every string node read through `string()` (an incremental re-analysis must not patch those). */
  readonly stringsRead = new Set<ts.Node>();

  constructor(readonly resolver: DeclarationResolver) {}

  /** The value an expression stands for, following identifiers (and `obj.key` of an object-literal
   *  const); undefined when not static. */
  valueOf(at: Parsed, node: ts.Node, depth = 0): At | undefined {
    const direct = unwrap(node);
    // the hot path: a literal, an object, a call — its own value, nothing to resolve
    if (!ts.isIdentifier(direct) && !ts.isPropertyAccessExpression(direct)) return { at, node: direct };
    const r = this.resolver.resolveExpression(at, direct);
    if (r?.kind !== "value") return undefined;
    const value = unwrap(r.node);
    if (depth < MAX_DEPTH && ts.isPropertyAccessExpression(value) && ts.isIdentifier(value.name)) {
      const base = this.valueOf(r.at, value.expression, depth + 1);
      if (base && ts.isObjectLiteralExpression(base.node)) {
        const member = propertyValue(findProperty(base.node, value.name.text));
        if (member) return this.valueOf(base.at, member, depth + 1);
      }
    }
    return { at: r.at, node: value };
  }

  /** An object literal's entries (later keys win, as at run time). Undefined when the value is not a
   *  statically known object literal. */
  object(at: Parsed, node: ts.Node | undefined, depth = 0): ObjectView | undefined {
    if (!node || depth > MAX_DEPTH) return undefined;
    const v = this.valueOf(at, node);
    if (!v || !ts.isObjectLiteralExpression(v.node)) return undefined;
    const view: ObjectView = { at: v.at, node: v.node, entries: new Map(), complete: true };
    for (const prop of v.node.properties) {
      const kind = prop.kind; // read once: every state of every machine is read here
      if (kind === SPREAD) {
        const inner = this.object(v.at, (prop as ts.SpreadAssignment).expression, depth + 1);
        if (!inner) {
          view.complete = false;
          continue;
        }
        if (!inner.complete) view.complete = false;
        if (inner.spread || inner.at.file !== v.at.file) view.spread = true;
        for (const [k, e] of inner.entries) {
          view.entries.delete(k);
          view.entries.set(k, e);
        }
        continue;
      }
      const name = propertyNameText(prop.name);
      let value: ts.Node | undefined;
      if (kind === PROPERTY_ASSIGNMENT) value = (prop as ts.PropertyAssignment).initializer;
      else if (kind === SHORTHAND) value = (prop as ts.ShorthandPropertyAssignment).name;
      else if (kind === METHOD) value = prop;
      if (name === undefined || !value) {
        view.complete = false; // a key that cannot be read, or an accessor
        continue;
      }
      view.entries.delete(name);
      view.entries.set(name, { name, at: v.at, node: prop, nameNode: propertyNameNode(prop.name!), value });
    }
    return view;
  }

  /** A string value, following consts. */
  string(at: Parsed, node: ts.Node | undefined): Text | undefined {
    if (!node) return undefined;
    const v = this.valueOf(at, node);
    if (!v || !isStringLike(v.node)) return undefined;
    this.stringsRead.add(v.node);
    return { text: v.node.text, at: v.at, node: v.node };
  }
}
