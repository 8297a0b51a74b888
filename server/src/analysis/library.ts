// How a library's extractor plugs into the analysis. The workspace builds one ExtractContext per file
// and calls each library's analyzer (statelyai, falai); their results are concatenated into the
// FileAnalysis. An analyzer never throws (the workspace also guards it): a half-typed file gives what
// could be read.
import type { AgentGraph, AgentReference, AgentSymbol, LensAnchor, StaticTest } from "./api";
import type { DeclarationResolver, Parsed } from "./resolve/declarations";
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

export interface LibraryAnalysis {
  symbols: AgentSymbol[];
  references: AgentReference[];
  /** Raw findings: suppression comments and severity settings are applied by the workspace. */
  findings: Finding[];
  lenses: LensAnchor[];
  graphs: AgentGraph[];
  tests?: StaticTest[];
}

export type LibraryAnalyzer = (ctx: ExtractContext) => LibraryAnalysis;
