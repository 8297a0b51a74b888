// How a library's extractor plugs into the analysis. The workspace builds one ExtractContext per file
// and calls each library's analyzer (statelyai, falai); their results are concatenated into the
// FileAnalysis. An analyzer never throws (the workspace also guards it): a half-typed file gives what
// could be read.
import type { AgentGraph, AgentReference, AgentSymbol, LensAnchor, StaticTest } from "./api";
import type { DeclarationResolver, Parsed } from "./resolve/declarations";
import type { AstEdit, EditPlace } from "./incremental/edit";
import type { Finding } from "./types";

export interface ExtractContext {
  file: string;
  /** The parsed file (compiler nodes with parent pointers). */
  parsed: Parsed;
  /** Follows identifiers to their values across the workspace (imports, re-exports, tsconfig paths);
   *  every file it reads is recorded as a dependency of this analysis. */
  resolver: DeclarationResolver;
  /** The context of another workspace file (parsed on demand), or undefined when it is missing. */
  contextFor(file: string): ExtractContext | undefined;
  /** Whether a file matches the workspace's test globs (defaults to this file). */
  isTestFile(file?: string): boolean;
  /** An analyzer found an eval API call (runSeam, agent.turn, ...) in this file: the file is an eval
   *  file whose static tests are listed. */
  noteEvalCall(): void;
}

/** What an analyzer derives besides findings: built on first need (diagnostics need findings only). */
export interface LibraryOutputs {
  symbols: AgentSymbol[];
  references: AgentReference[];
  lenses: LensAnchor[];
  graphs: AgentGraph[];
  tests?: StaticTest[];
}

export interface LibraryAnalysis {
  /** Raw findings: suppression comments and severity settings are applied by the workspace. */
  findings: Finding[];
  /** Machines, flows and agents defined in the analyzed file (its definition symbols, counted). */
  definitions: number;
  /** Symbols, references, lenses, graphs (and tests): computed on the first call, the same list after. */
  outputs(): LibraryOutputs;
  /**
   * The analysis of the file after `edit` patched its syntax tree in place (patch.ts: the same nodes, one
   * literal's text or one comment changed, positions moved), built from what this analysis extracted.
   * Undefined when the edit may change what was extracted: the workspace then analyzes the file again.
   * `text` is the new text. Never throws.
   */
  reuse?(edit: AstEdit, place: EditPlace, text: string): LibraryAnalysis | undefined;
}

export type LibraryAnalyzer = (ctx: ExtractContext) => LibraryAnalysis;

/** Outputs computed once, on first call. */
export function once(build: () => LibraryOutputs): () => LibraryOutputs {
  let done: LibraryOutputs | undefined;
  return () => (done ??= build());
}

export const NO_OUTPUTS: () => LibraryOutputs = () => ({ symbols: [], references: [], lenses: [], graphs: [] });
