// Rename a state, request, step, field (or any other named symbol): the declaration's name and every
// reference to it, across files. Returns plain text edits; the adapter groups them per file.
import type { AgentSymbol, FileAnalysis, SymbolKind } from "../api";
import type { SourceRange, TextEdit } from "../types";
import { locate, nameSpanIn, symbolAt, type SymbolIndex } from "./locate";

/** Kinds a user may rename from the editor. */
const RENAMEABLE: ReadonlySet<SymbolKind> = new Set<SymbolKind>(["state", "request", "step", "field", "flow", "model", "actor", "tool", "action", "event", "condition"]);

export interface PrepareRenameResult {
  range: SourceRange;
  placeholder: string;
  symbol: AgentSymbol;
}

export function prepareRenameAt(index: SymbolIndex, analysis: FileAnalysis, offset: number): PrepareRenameResult | undefined {
  const { reference, symbol: declared } = locate(analysis, offset);
  const symbol = symbolAt(index, analysis, offset);
  if (!symbol || !RENAMEABLE.has(symbol.kind)) return undefined;
  if (declared) return { range: declared.nameRange, placeholder: symbol.name, symbol };
  const range = reference ? nameSpanIn(reference, symbol.name) : undefined;
  return range ? { range, placeholder: symbol.name, symbol } : undefined;
}

/** Why a new name is refused, or undefined when it is fine. The names become object keys (`states`,
 *  `requests`, `fields({...})`, registries) and keys of the libraries' own maps, so `__proto__` and the
 *  names every object inherits (`constructor`, `toString`, ...) are refused for every kind (issue 26: a
 *  state renamed to `__proto__` vanished at run time). */
function invalidNewName(kind: SymbolKind, newName: string): string | undefined {
  if (newName.trim() === "" || newName !== newName.trim()) return "A name cannot be empty or start or end with spaces.";
  if (/["'`\\\r\n]/.test(newName)) return "A name cannot contain quotes, backslashes or line breaks.";
  if (kind === "state" && /[.#]/.test(newName)) return "A state name cannot contain '.' or '#' (they separate target paths).";
  if (newName === "__proto__") return `'__proto__' cannot name a ${kind}: as an object key it sets the object's prototype instead of adding a key, so the ${kind} would vanish at run time. Choose another name.`;
  if (newName in Object.prototype) return `'${newName}' cannot name a ${kind}: every JavaScript object already has a '${newName}', so a lookup by this name can find the inherited one instead. Choose another name.`;
  return undefined;
}

/** One edit of a rename. */
export interface RenameEdit extends TextEdit {
  /** False for a place that may name the symbol but is not tied to it with certainty: an editor should
   *  ask before changing it (never change it silently, never leave it out silently). */
  certain: boolean;
  /** Why an uncertain edit is uncertain. */
  reason?: string;
}

/** The edits, or (with no edits) why the new name is refused. */
export interface RenameResult {
  edits: RenameEdit[];
  error?: string;
  /** The symbol renamed. */
  symbol?: AgentSymbol;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The edits that rename the symbol under the cursor to `newName`. `textOf` gives a file's current text so
 * an unquoted object key (`draftEmail: {...}`) gets quotes when the new name is not an identifier.
 * Undefined when nothing renameable is under the cursor; throws nothing.
 */
export function renameEdits(
  index: SymbolIndex,
  analysis: FileAnalysis,
  offset: number,
  newName: string,
  textOf: (file: string) => string | undefined,
): RenameResult | undefined {
  const prepared = prepareRenameAt(index, analysis, offset);
  if (!prepared) return undefined;
  const { symbol } = prepared;
  const invalid = invalidNewName(symbol.kind, newName);
  if (invalid) return { edits: [], error: invalid };

  const edits: RenameEdit[] = [];
  const seen = new Set<string>();
  const add = (file: string, range: SourceRange, newText: string, reason?: string) => {
    const key = `${file}:${range.start}`;
    if (seen.has(key)) return; // a place tied for sure is added first and wins
    seen.add(key);
    edits.push(reason === undefined ? { file, range, newText, certain: true } : { file, range, newText, certain: false, reason });
  };

  const declText = textOf(symbol.file);
  const before = declText?.[symbol.nameRange.start - 1];
  const quoted = before === '"' || before === "'" || before === "`";
  const key = quoted || IDENTIFIER.test(newName) ? newName : JSON.stringify(newName);
  // `{ notify }` names the key and the value at once: keep the value, rename the key
  add(symbol.file, symbol.nameRange, symbol.shorthand ? `${key}: ${symbol.name}` : key);

  const references = [...index.referencesTo(symbol.id), ...analysis.references.filter((r) => r.targetId === symbol.id)];
  const uncertain = index.uncertainReferencesTo(symbol);
  for (const ref of [...references, ...uncertain]) {
    const span = nameSpanIn(ref, symbol.name);
    if (!span) continue;
    // A reference written as a bare object key (`if: { naEtapa: "x" }`, `ask: { nome: "..." }`) needs
    // quotes when the new name is not an identifier; a string's contents never do.
    const text = span === ref.range ? textOf(ref.file) : undefined;
    const quote = text?.[span.start - 1];
    const bareKey = text !== undefined && quote !== '"' && quote !== "'" && quote !== "`";
    add(ref.file, span, bareKey && !IDENTIFIER.test(newName) ? JSON.stringify(newName) : newName, ref.uncertain?.reason);
  }
  return { edits, symbol };
}
