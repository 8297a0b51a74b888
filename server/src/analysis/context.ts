// The ExtractContext handed to each library analyzer: the parsed file, the declaration resolver, and
// contexts for other files. Backed by the workspace (which parses files lazily and records every file
// an analysis reads as one of its dependencies).
import type { SourceFile, ts } from "ts-morph";
import type { ExtractContext } from "./library";
import { reportAnalysisError } from "./errors";
import { wrapSourceFile } from "./parse";
import { DeclarationResolver, type Parsed } from "./resolve/declarations";

export interface ContextHost {
  /** The syntax tree of a workspace file (parsed on demand, parents set), or undefined when missing. */
  tree(file: string): ts.SourceFile | undefined;
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
    sf: ts.SourceFile,
  ) {
    this.parsed = { file, sf };
    session.contexts.set(file, this);
    this.resolver = new DeclarationResolver({
      parsed: (f) => this.contextFor(f)?.parsed,
      resolveModule: (from, spec) => host.resolveModule(from, spec),
    });
  }

  contextFor(file: string): FileContext | undefined {
    const existing = this.session.contexts.get(file);
    if (existing) return existing;
    let sf: ts.SourceFile | undefined;
    try {
      sf = this.host.tree(file);
    } catch (error) {
      // a file this one imports cannot be read (nested too deep to parse): it is unknown here, and this
      // file's analysis says so (analysis-failed) instead of losing its own findings
      reportAnalysisError(error, `reading ${file}`);
      return undefined;
    }
    if (!sf) return undefined;
    this.session.dependencies.add(file);
    return new FileContext(this.host, this.session, file, sf);
  }

  /** The ts-morph SourceFile around the file's tree, made on first ask: the analyzers read the compiler
   *  nodes, and wrapping every parsed file cost a tenth of its parse (and a project context each). */
  get sourceFile(): SourceFile {
    return (this.wrapped ??= wrapSourceFile(this.parsed.sf));
  }

  private wrapped?: SourceFile;

  isTestFile(file = this.file): boolean {
    return this.host.isTestFile(file);
  }

  noteEvalCall(): void {
    this.session.evalCalls++;
  }
}
