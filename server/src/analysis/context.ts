// The ExtractContext handed to each library analyzer: the parsed file, the declaration resolver, and
// contexts for other files. Backed by the workspace (which parses files lazily and records every file
// an analysis reads as one of its dependencies).
import type { SourceFile } from "ts-morph";
import type { ExtractContext } from "./library";
import { DeclarationResolver, type Parsed } from "./resolve/declarations";

export interface ContextHost {
  /** The ts-morph source file of a workspace file (parsed on demand), or undefined when missing. */
  sourceFile(file: string): SourceFile | undefined;
  resolveModule(fromFile: string, specifier: string): string | undefined;
  /** Whether a file matches the eval/test globs. */
  isTestFile(file: string): boolean;
}

/** Shared by the contexts of one analysis run: the files it read, and the eval calls found. */
export interface AnalysisSession {
  dependencies: Set<string>;
  contexts: Map<string, FileContext>;
  evalCalls: number;
}

export class FileContext implements ExtractContext {
  readonly parsed: Parsed;
  readonly resolver: DeclarationResolver;

  constructor(
    private readonly host: ContextHost,
    private readonly session: AnalysisSession,
    readonly file: string,
    sourceFile: SourceFile,
  ) {
    this.parsed = { file, sf: sourceFile.compilerNode };
    session.contexts.set(file, this);
    this.resolver = new DeclarationResolver({
      parsed: (f) => this.contextFor(f)?.parsed,
      resolveModule: (from, spec) => host.resolveModule(from, spec),
    });
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

  noteEvalCall(): void {
    this.session.evalCalls++;
  }
}
