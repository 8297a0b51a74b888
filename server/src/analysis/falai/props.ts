// The properties of one object literal by name, as a falai definition's reader sees them (reader.ts):
// later keys win, spreads of the same file's literals merged in by the reader.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: each `ts.x` through ts-morph's re-export is a getter call (the hot path)
import { propertyNameText } from "../util/ts-nodes";

const SPREAD = ts.SyntaxKind.SpreadAssignment;
const GET_ACCESSOR = ts.SyntaxKind.GetAccessor;
const SET_ACCESSOR = ts.SyntaxKind.SetAccessor;

/** What merges a literal's spreads into its Props: the Reader (reader.ts), which follows them. */
interface SpreadMerger {
  mergeInto(props: Props, obj: ts.ObjectLiteralExpression, from: number, depth: number): void;
}

/** The key a property is read under; undefined for an accessor (no value to read) or a key that cannot be
 *  read (a computed key that is not a literal). */
export function keyOf(p: ts.ObjectLiteralElementLike, kind: ts.SyntaxKind): string | undefined {
  return kind === GET_ACCESSOR || kind === SET_ACCESSOR ? undefined : propertyNameText(p.name);
}

/**
 * The properties of an object literal of one file, by name (later keys win, as at run time), spreads of
 * this file's object literals merged. Definitions are read by the thousand, so each literal's keys are
 * read once, into a list of names that every lookup scans (a lookup that read the compiler nodes again
 * would touch objects of many shapes each time). A literal without a spread (nearly all) keeps its own
 * property list beside the names, so a read allocates the names alone. `complete` is false when a spread
 * or a key could not be read.
 */
export class Props {
  /** The key of each entry of `entries`, in source order; undefined for a property without a name we can
   *  read (an accessor, a computed key that is not a literal), which no lookup matches. */
  private names: Array<string | undefined>;
  /** The literal's own properties, or (once a spread was met) a list of its and the spreads' properties. */
  private entries: readonly ts.ObjectLiteralElementLike[];
  private map?: Map<string, ts.ObjectLiteralElementLike>;
  complete = true;

  constructor(readonly node: ts.ObjectLiteralExpression, reader: SpreadMerger) {
    const properties = node.properties;
    const names = new Array<string | undefined>(properties.length);
    this.names = names;
    this.entries = properties;
    for (let i = 0; i < properties.length; i++) {
      const p = properties[i]!;
      const kind = p.kind; // one read of each node's kind: the literals of a file are read by the thousand
      if (kind === SPREAD) {
        this.names = names.slice(0, i);
        this.entries = properties.slice(0, i);
        reader.mergeInto(this, node, i, 0);
        return;
      }
      const name = keyOf(p, kind);
      if (name === undefined) this.complete = false;
      names[i] = name;
    }
  }

  /** Records one property under its key (Reader.mergeInto, in source order, once a spread was met). */
  add(name: string, p: ts.ObjectLiteralElementLike): void {
    this.names.push(name);
    (this.entries as ts.ObjectLiteralElementLike[]).push(p);
  }

  /** Every property by name, in the order the keys last appear (built on first ask). */
  get byName(): Map<string, ts.ObjectLiteralElementLike> {
    if (!this.map) {
      this.map = new Map();
      for (let i = 0; i < this.names.length; i++) {
        const name = this.names[i];
        if (name === undefined) continue;
        this.map.delete(name); // a later key moves to the end, as at run time
        this.map.set(name, this.entries[i]!);
      }
    }
    return this.map;
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  /** The value written for `name`: an initializer, a shorthand's identifier, or a method. */
  get(name: string): ts.Node | undefined {
    const p = this.prop(name);
    if (!p) return undefined;
    if (ts.isPropertyAssignment(p)) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p)) return p.name;
    return p;
  }

  /** The property that declares `name` (for its key's range). */
  prop(name: string): ts.ObjectLiteralElementLike | undefined {
    const i = this.indexOf(name);
    return i < 0 ? undefined : this.entries[i];
  }

  /** The index of the last entry named `name` (later keys win), or -1. */
  private indexOf(name: string): number {
    const names = this.names;
    for (let i = names.length - 1; i >= 0; i--) if (names[i] === name) return i;
    return -1;
  }
}
