// Symbols by id across the workspace, and the reference queries over every analysis. A file's symbols are
// indexed when first needed (reading them builds them), so analyzing a file costs nothing here.
import { ts } from "ts-morph";
import type { AgentReference, AgentSymbol, FileAnalysis } from "./api";

export class SymbolIndex {
  /** Indexed symbols per file; a file whose symbols were not read yet is in `unindexed`. */
  private readonly symbolsByFile = new Map<string, AgentSymbol[]>();
  private readonly unindexed = new Set<string>();
  private readonly byId = new Map<string, AgentSymbol>();

  /** `symbolsOf(file)`: the symbols of the file's current analysis. */
  constructor(private readonly symbolsOf: (file: string) => AgentSymbol[]) {}

  /** The file has a new analysis: its symbols are indexed when next needed. */
  invalidate(file: string): void {
    this.drop(file);
    this.unindexed.add(file);
  }

  /** The file is gone. */
  drop(file: string): void {
    this.unindexed.delete(file);
    for (const s of this.symbolsByFile.get(file) ?? []) if (this.byId.get(s.id) === s) this.byId.delete(s.id);
    this.symbolsByFile.delete(file);
  }

  /** The symbol with this id: its own file's symbols first (ids start with the file), then every file's. */
  find(symbolId: string): AgentSymbol | undefined {
    const file = symbolId.slice(0, symbolId.indexOf("#"));
    if (this.unindexed.has(file)) this.index(file);
    const found = this.byId.get(symbolId);
    if (found || !this.unindexed.size) return found;
    for (const f of [...this.unindexed]) this.index(f);
    return this.byId.get(symbolId);
  }

  private index(file: string): void {
    this.unindexed.delete(file);
    const symbols = this.symbolsOf(file);
    this.symbolsByFile.set(file, symbols);
    for (const s of symbols) this.byId.set(s.id, s);
  }
}

/** Every reference to the symbol in `analyses` (one per place and role). */
export function referencesTo(analyses: FileAnalysis[], symbolId: string): AgentReference[] {
  const out: AgentReference[] = [];
  const seen = new Set<string>();
  for (const raw of analyses) {
    for (const ref of raw.references) {
      if (ref.targetId !== symbolId) continue;
      const key = `${ref.file}:${ref.range.start}:${ref.role}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(ref);
    }
  }
  return out;
}

/** The places in `analyses` that may name the symbol (AgentReference.uncertain): those listing its id,
 *  and those naming its kind and name in a file that sees its file (`imports`). */
export function uncertainReferencesTo(analyses: FileAnalysis[], symbol: AgentSymbol, imports: (file: string, target: string) => boolean): AgentReference[] {
  const out: AgentReference[] = [];
  const seen = new Set<string>();
  const sees = new Map<string, boolean>(); // file → whether it imports the symbol's file, directly or not
  for (const raw of analyses) {
    const file = raw.file;
    for (const ref of raw.references) {
      const maybe = ref.uncertain;
      if (!maybe) continue;
      if (maybe.ids.length) {
        if (!maybe.ids.includes(symbol.id)) continue;
      } else {
        if (ref.kind !== symbol.kind || ref.text !== symbol.name) continue;
        let importsIt = sees.get(file);
        if (importsIt === undefined) sees.set(file, (importsIt = imports(file, symbol.file)));
        if (!importsIt) continue;
      }
      const key = `${ref.file}:${ref.range.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(ref);
    }
  }
  return out;
}

/** Whether `file` is `target` or imports it, directly or through other files (imports and re-exports as
 *  written, whether or not an analysis followed them). */
export function importsFile(file: string, target: string, tree: (file: string) => ts.SourceFile | undefined, resolve: (from: string, specifier: string) => string | undefined): boolean {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length) {
    const current = queue.pop()!;
    if (current === target) return true;
    let sf: ts.SourceFile | undefined;
    try {
      sf = tree(current);
    } catch {
      continue; // a file the parser cannot read (its own analysis says so) imports nothing we can see
    }
    for (const stmt of sf?.statements ?? []) {
      const spec = (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier) ? stmt.moduleSpecifier.text : undefined;
      const next = spec && resolve(current, spec);
      if (next && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}
