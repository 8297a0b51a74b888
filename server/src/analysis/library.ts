// How a library's extractor plugs into the analysis. The workspace builds one ExtractContext per file
// and calls each library's analyzer (statelyai, falai); their results are concatenated into the
// FileAnalysis. An analyzer never throws (the workspace also guards it): a half-typed file gives what
// could be read.
import type { Identifier, Node, SourceFile } from "ts-morph";
import type { AgentGraph, AgentReference, AgentSymbol, LensAnchor, StaticTest } from "./api";
import type { Finding } from "./types";
import type { SourceRange } from "./types";

export interface ResolvedDeclaration {
  file: string;
  sourceFile: SourceFile;
  /** The initializer / declaration node the identifier resolves to (through imports, re-exports,
   *  default exports and tsconfig paths), e.g. the `agent.createMachine({...})` call expression. */
  node: Node;
}

export interface ExtractContext {
  file: string;
  sourceFile: SourceFile;
  /** The range of a node's text (without leading trivia). */
  rangeOf(node: Node): SourceRange;
  /** The range between two offsets of this file. */
  rangeAt(start: number, end: number): SourceRange;
  /** Follow an identifier to its value, across files when it is imported. Undefined when not static. */
  resolveIdentifier(id: Identifier): ResolvedDeclaration | undefined;
  /** A context for another file of the workspace (for ranges of declarations found through imports). */
  contextFor(file: string): ExtractContext | undefined;
  /** Like resolveIdentifier for any expression: identifiers and `ns.member` of a namespace import are
   *  followed; any other expression is its own value. */
  resolveExpression?(node: Node): ResolvedDeclaration | undefined;
  /** When an identifier is imported from a module that is not followed (a library such as
   *  "@falai/agent"): that module and the imported name ("default" / "*" for default / namespace). */
  libraryImportOf?(id: Identifier): { module: string; name: string } | undefined;
  /** Whether a file matches the workspace's test globs (defaults to this file). */
  isTestFile?(file?: string): boolean;
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
