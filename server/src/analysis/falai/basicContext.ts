// A minimal ExtractContext over a ts-morph SourceFile: ranges from the compiler's line map and
// identifiers followed within the file. Used when the workspace cannot give a context for a file an
// import led to (and by this folder's tests before the workspace existed).
import { Node, type SourceFile, type ts } from "ts-morph";
import type { ExtractContext, ResolvedDeclaration } from "../library";
import type { SourceRange } from "../types";

function rangeInTs(sf: ts.SourceFile, start: number, end: number): SourceRange {
  const s = sf.getLineAndCharacterOfPosition(start);
  const e = end === start ? s : sf.getLineAndCharacterOfPosition(end);
  return { start, end, startLine: s.line, startColumn: s.character, endLine: e.line, endColumn: e.character };
}

export function basicContext(file: string, sourceFile: SourceFile, others?: (file: string) => ExtractContext | undefined): ExtractContext {
  const sf = sourceFile.compilerNode;
  const ctx: ExtractContext = {
    file,
    sourceFile,
    rangeOf: (node) => rangeInTs(sf, node.getStart(), node.getEnd()),
    rangeAt: (start, end) => rangeInTs(sf, start, end),
    resolveIdentifier(id): ResolvedDeclaration | undefined {
      const symbol = id.getSymbol();
      const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
      for (const decl of target?.getDeclarations() ?? []) {
        if (Node.isVariableDeclaration(decl)) {
          const init = decl.getInitializer();
          if (init) return { file: decl.getSourceFile().getFilePath(), sourceFile: decl.getSourceFile(), node: init };
        }
        if (Node.isFunctionDeclaration(decl)) return { file: decl.getSourceFile().getFilePath(), sourceFile: decl.getSourceFile(), node: decl };
      }
      return undefined;
    },
    contextFor: (other) => (other === file ? ctx : others?.(other)),
  };
  return ctx;
}
