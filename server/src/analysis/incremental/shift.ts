// Moves what an analysis found past an AstEdit: ranges after the edit move by its delta (and, on the
// edit's own line, their columns too — an AstEdit never adds or removes a line), ranges around it grow or
// shrink with it, ranges before it stay. Objects that do not move are reused as they are.
import type { AgentGraph, AgentReference, AgentSymbol, LensAnchor, StaticTest } from "../api";
import type { LibraryOutputs } from "../library";
import type { Finding, SourceRange, TextEdit } from "../types";
import type { EditPlace } from "./edit";

function shiftRange(r: SourceRange, at: EditPlace): SourceRange {
  const { start, oldEnd, delta } = at.edit;
  if (r.end <= start || delta === 0) return r;
  const endColumn = r.endLine === at.line ? r.endColumn + delta : r.endColumn;
  if (r.start >= oldEnd) return { start: r.start + delta, end: r.end + delta, startLine: r.startLine, startColumn: r.startLine === at.line ? r.startColumn + delta : r.startColumn, endLine: r.endLine, endColumn };
  return { start: r.start, end: r.end + delta, startLine: r.startLine, startColumn: r.startColumn, endLine: r.endLine, endColumn };
}

/** `list` with each item moved by `move` (the same array when nothing moved). */
function shiftList<T>(list: T[], move: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    const moved = move(item);
    if (moved !== item) (out ??= list.slice(0, i)).push(moved);
    else out?.push(item);
  }
  return out ?? list;
}

const moved = (r: SourceRange, at: EditPlace) => shiftRange(r, at);

/** `item` with its range moved, when it lies in the edited file (itself when nothing moved); `copy` makes
 *  the moved item (default: a spread with the new range). */
function shiftInFile<T extends { file: string; range: SourceRange }>(item: T, at: EditPlace, copy: (item: T, range: SourceRange) => T = (x, range) => ({ ...x, range })): T {
  if (item.file !== at.file) return item;
  const range = moved(item.range, at);
  return range === item.range ? item : copy(item, range);
}

const shiftEdit = (e: TextEdit, at: EditPlace): TextEdit => shiftInFile(e, at);

export function shiftFindings(findings: Finding[], at: EditPlace): Finding[] {
  return shiftList(findings, (f) => {
    if (f.file !== at.file) return f;
    const range = moved(f.range, at);
    const fixes = f.fixes && shiftList(f.fixes, (fix) => {
      const edits = shiftList(fix.edits, (e) => shiftEdit(e, at));
      return edits === fix.edits ? fix : { ...fix, edits };
    });
    if (range === f.range && fixes === f.fixes) return f;
    const out: Finding = { ...f, range };
    if (fixes) out.fixes = fixes;
    return out;
  });
}

function shiftSymbols(symbols: AgentSymbol[], at: EditPlace): AgentSymbol[] {
  return shiftList(symbols, (s) => {
    if (s.file !== at.file) return s;
    const nameRange = moved(s.nameRange, at);
    const range = moved(s.range, at);
    return nameRange === s.nameRange && range === s.range ? s : copyWith(s, { nameRange, range });
  });
}

function shiftReferences(references: AgentReference[], at: EditPlace): AgentReference[] {
  return shiftList(references, (r) => shiftInFile(r, at, (x, range) => copyWith(x, { range })));
}

/** A copy of `item` (same keys, same order) with some values replaced. A property still computed on first
 *  read (a summary, completion candidates) stays so: the copy reads it from the original, which keeps it. */
function copyWith<T extends object>(item: T, values: Partial<T>): T {
  const copy = {} as T;
  for (const key of Object.keys(item) as Array<keyof T>) {
    const d = Object.getOwnPropertyDescriptor(item, key)!;
    if (key in values) Object.defineProperty(copy, key, { value: values[key], enumerable: true, writable: true, configurable: true });
    else if (d.get) Object.defineProperty(copy, key, { get: () => item[key], enumerable: true, configurable: true });
    else Object.defineProperty(copy, key, d);
  }
  return copy;
}

function shiftLenses(lenses: LensAnchor[], at: EditPlace): LensAnchor[] {
  return shiftList(lenses, (l) => shiftInFile(l, at));
}

function shiftGraphs(graphs: AgentGraph[], at: EditPlace): AgentGraph[] {
  return shiftList(graphs, (g) => {
    const nodes = shiftList(g.nodes, (n) => shiftInFile(n, at));
    const edges = shiftList(g.edges, (e) => (e.range && e.file === at.file ? shiftInFile(e as typeof e & { file: string; range: SourceRange }, at) : e));
    // the definition's own range: in the file the graph's id names
    const range = g.range && g.id.startsWith(`${at.file}#`) ? moved(g.range, at) : g.range;
    if (nodes === g.nodes && edges === g.edges && range === g.range) return g;
    const out: AgentGraph = { ...g, nodes, edges };
    if (range) out.range = range;
    return out;
  });
}

function shiftTests(tests: StaticTest[], at: EditPlace): StaticTest[] {
  return shiftList(tests, (t) => {
    if (t.file !== at.file) return t;
    const range = moved(t.range, at);
    const children = t.children && shiftTests(t.children, at);
    if (range === t.range && children === t.children) return t;
    const out: StaticTest = { ...t, range };
    if (children) out.children = children;
    return out;
  });
}

/** Every output moved past the edit. */
export function shiftOutputs(o: LibraryOutputs, at: EditPlace): LibraryOutputs {
  const out: LibraryOutputs = { symbols: shiftSymbols(o.symbols, at), references: shiftReferences(o.references, at), lenses: shiftLenses(o.lenses, at), graphs: shiftGraphs(o.graphs, at) };
  if (o.tests) out.tests = shiftTests(o.tests, at);
  return out;
}
