// A FileAnalysis whose findings are computed at once and whose other parts (symbols, references, lenses,
// tests, graphs) are computed on first read — publishing diagnostics needs the findings only. Each part,
// once read, is a plain data property (same keys, same order, as an eager analysis: spread and JSON see no
// difference). An analysis is *sealed* when its file's syntax tree is patched in place for a newer version:
// parts not read by then would be built from the newer tree, so they read as empty lists instead.
import type { ts } from "ts-morph";
import type { FileAnalysis, StaticTest } from "./api";
import { reportAnalysisError } from "./errors";
import type { LibraryAnalysis, LibraryOutputs } from "./library";
import { staticTests } from "./static-tests";
import { FINDING_CODES, type Finding } from "./types";

const sealed = new WeakSet<FileAnalysis>();

type LazyKey = "symbols" | "references" | "lenses" | "tests" | "graphs";

/** The parts built on first read. */
export const LAZY_PARTS: readonly LazyKey[] = ["symbols", "references", "lenses", "tests", "graphs"];

function lazyFileAnalysis(file: string, isAgentFile: boolean, findings: Finding[], dependencies: string[], definitions: number, outputs: () => LibraryOutputs, tests: () => StaticTest[]): FileAnalysis {
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
  for (const key of LAZY_PARTS) void analysis[key];
}

/** What `assembleAnalysis` needs of the file besides its libraries' parts. */
export interface AssembledFile {
  file: string;
  isAgentFile: boolean;
  /** It matches the test globs. */
  isTest: boolean;
  /** This version's tree (for the static tests, read when first asked for). */
  tree: ts.SourceFile | undefined;
}

/** The file's analysis from its libraries' parts: findings now, the rest on first read. */
export function assembleAnalysis(about: AssembledFile, parts: LibraryAnalysis[], evalCalls: number, dependencies: string[]): FileAnalysis {
  const { file, isTest, tree: sf } = about;
  const findings: Finding[] = [];
  for (const part of parts) findings.push(...part.findings);
  let outputs: LibraryOutputs | undefined;
  const allOutputs = (): LibraryOutputs => {
    if (outputs) return outputs;
    outputs = { symbols: [], references: [], lenses: [], graphs: [] };
    const tests: StaticTest[] = [];
    for (const part of parts) {
      let o: LibraryOutputs;
      try {
        o = part.outputs();
      } catch (error) {
        reportAnalysisError(error, `outputs of ${file}`);
        continue;
      }
      outputs.symbols.push(...o.symbols);
      outputs.references.push(...o.references);
      outputs.lenses.push(...o.lenses);
      outputs.graphs.push(...o.graphs);
      if (o.tests) tests.push(...o.tests);
    }
    outputs.tests = tests;
    return outputs;
  };
  const tests = () => {
    const libraryTests = allOutputs().tests ?? [];
    const callsEvals = evalCalls > 0 || allOutputs().lenses.some((l) => l.target.line !== undefined && l.target.file === file);
    if (!isTest && !callsEvals) return libraryTests;
    let found: StaticTest[];
    try {
      found = sf ? staticTests(file, sf) : [];
    } catch (error) {
      reportAnalysisError(error, `static tests of ${file}`);
      found = [];
    }
    return found.length === 1 && found[0]!.kind === "file" && libraryTests.length ? libraryTests : found;
  };
  const definitions = parts.reduce((n, p) => n + p.definitions, 0);
  return lazyFileAnalysis(file, about.isAgentFile, findings, dependencies, definitions, allOutputs, tests);
}

/** A library analyzer that threw: nothing from it (the other analyzers' results stay). */
export function failedPart(): LibraryAnalysis {
  return { findings: [], definitions: 0, outputs: () => ({ symbols: [], references: [], lenses: [], graphs: [] }) };
}

export function emptyAnalysis(file: string): FileAnalysis {
  return { file, isAgentFile: false, symbols: [], references: [], findings: [], lenses: [], tests: [], graphs: [], dependencies: [], definitions: 0 };
}

/** A file the analysis would read but will not (too large): one analysis-skipped finding saying so. */
export function tooLargeAnalysis(file: string, chars: number, limit: number): FileAnalysis {
  const message = `Not analyzed: the file has ${chars.toLocaleString("en-US")} characters, over the ${limit.toLocaleString("en-US")} limit, so nothing in it is checked.`;
  const range = { start: 0, end: 0, startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };
  return { ...emptyAnalysis(file), findings: [{ code: "analysis-skipped", severity: FINDING_CODES["analysis-skipped"], message, file, range }] };
}
