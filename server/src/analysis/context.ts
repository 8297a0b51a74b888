// The ExtractContext handed to each library analyzer: ranges, identifier resolution across files, and
// contexts for other files. Backed by the workspace (which parses files lazily and records every file
// an analysis reads as one of its dependencies).
import type { Identifier, Node, SourceFile } from "ts-morph";
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { ExtractContext, ResolvedDeclaration } from "./library";
import { rangeAt, rangeOfNode } from "./ranges";
import { DeclarationResolver, type Parsed, type Resolution } from "./resolve/declarations";
import type { SourceRange } from "./types";

export interface ContextHost {
  /** The ts-morph source file of a workspace file (parsed on demand), or undefined when missing. */
  sourceFile(file: string): SourceFile | undefined;
  resolveModule(fromFile: string, specifier: string): string | undefined;
  /** Whether a file matches the eval/test globs. */
  isTestFile(file: string): boolean;
}

/** Shared by the contexts of one analysis run: the files it read. */
export interface AnalysisSession {
  dependencies: Set<string>;
  contexts: Map<string, FileContext>;
}

export class FileContext implements ExtractContext {
  readonly parsed: Parsed;
  readonly resolver: DeclarationResolver;
  /** Eval API calls (runSeam, runAgent, agent.turn, ...) an analyzer found in this file: it makes the
   *  file an eval file whose static tests are listed. */
  evalCalls = 0;

  constructor(
    private readonly host: ContextHost,
    private readonly session: AnalysisSession,
    readonly file: string,
    readonly sourceFile: SourceFile,
  ) {
    this.parsed = { file, sf: sourceFile.compilerNode };
    session.contexts.set(file, this);
    this.resolver = new DeclarationResolver({
      parsed: (f) => this.contextFor(f)?.parsed,
      resolveModule: (from, spec) => host.resolveModule(from, spec),
    });
  }

  get sf(): ts.SourceFile {
    return this.parsed.sf;
  }

  rangeOf(node: Node): SourceRange {
    return rangeOfNode(node);
  }

  rangeAt(start: number, end: number): SourceRange {
    return rangeAt(this.parsed.sf, start, end);
  }

  resolveIdentifier(id: Identifier): ResolvedDeclaration | undefined {
    return this.toDeclaration(this.resolver.resolveIdentifier(this.parsed, id.compilerNode));
  }

  resolveExpression(node: Node): ResolvedDeclaration | undefined {
    return this.toDeclaration(this.resolver.resolveExpression(this.parsed, node.compilerNode));
  }

  libraryImportOf(id: Identifier): { module: string; name: string } | undefined {
    const r = this.resolver.resolveIdentifier(this.parsed, id.compilerNode);
    return r?.kind === "library" ? { module: r.module, name: r.name } : undefined;
  }

  contextFor(file: string): FileContext | undefined {
    const existing = this.session.contexts.get(file);
    if (existing) return existing;
    const sourceFile = this.host.sourceFile(file);
    if (!sourceFile) return undefined;
    this.session.dependencies.add(file);
    return new FileContext(this.host, this.session, file, sourceFile);
  }

  isTestFile(file = this.file): boolean {
    return this.host.isTestFile(file);
  }

  /** The ts-morph wrapper of a compiler node of this file. */
  wrap(node: ts.Node): Node {
    return (this.sourceFile as unknown as { _getNodeFromCompilerNode(n: ts.Node): Node })._getNodeFromCompilerNode(node);
  }

  private toDeclaration(r: Resolution | undefined): ResolvedDeclaration | undefined {
    if (r?.kind !== "value") return undefined;
    const ctx = this.contextFor(r.at.file);
    if (!ctx) return undefined;
    return { file: ctx.file, sourceFile: ctx.sourceFile, node: ctx.wrap(r.node) };
  }
}
