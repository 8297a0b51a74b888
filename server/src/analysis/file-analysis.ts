// A FileAnalysis whose findings are computed at once and whose other parts (symbols, references, lenses,
// tests, graphs) are computed on first read — publishing diagnostics needs the findings only. Each part,
// once read, is a plain data property (same keys, same order, as an eager analysis: spread and JSON see no
// difference). An analysis is *sealed* when its file's syntax tree is patched in place for a newer version:
// parts not read by then would be built from the newer tree, so they read as empty lists instead.
import type { FileAnalysis, StaticTest } from "./api";
import type { LibraryOutputs } from "./library";
import type { Finding } from "./types";

const sealed = new WeakSet<FileAnalysis>();

type LazyKey = "symbols" | "references" | "lenses" | "tests" | "graphs";

export function lazyFileAnalysis(file: string, isAgentFile: boolean, findings: Finding[], dependencies: string[], definitions: number, outputs: () => LibraryOutputs, tests: () => StaticTest[]): FileAnalysis {
  const a = { file, isAgentFile } as FileAnalysis;
  const part = (key: LazyKey, build: () => unknown) =>
    Object.defineProperty(a, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = sealed.has(a) ? [] : build();
        Object.defineProperty(a, key, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
    });
  part("symbols", () => outputs().symbols);
  part("references", () => outputs().references);
  a.findings = findings;
  part("lenses", () => outputs().lenses);
  part("tests", tests);
  part("graphs", () => outputs().graphs);
  a.dependencies = dependencies;
  a.definitions = definitions;
  return a;
}

/** The same analysis with other findings (severity and suppression applied); unread parts stay unread
 *  (and are read from `raw`, which keeps them). */
export function withFindings(raw: FileAnalysis, findings: Finding[]): FileAnalysis {
  const a = {} as FileAnalysis;
  for (const key of Object.keys(raw) as Array<keyof FileAnalysis>) {
    const d = Object.getOwnPropertyDescriptor(raw, key)!;
    if (key === "findings") a.findings = findings;
    else if (d.get) Object.defineProperty(a, key, { enumerable: true, configurable: true, get: () => raw[key] });
    else Object.defineProperty(a, key, d);
  }
  return a;
}

/** Parts of `analysis` not read yet will read as empty lists (its tree now holds a newer version). */
export function seal(analysis: FileAnalysis): void {
  sealed.add(analysis);
}

/** Reads every part (so nothing of the analysis needs its tree or model any more). */
export function materialize(analysis: FileAnalysis): void {
  void analysis.symbols;
  void analysis.references;
  void analysis.lenses;
  void analysis.tests;
  void analysis.graphs;
}
