// Conversions between the analysis' plain data and LSP types. The analysis speaks absolute paths,
// UTF-16 offsets and 0-based lines/columns, so ranges map one to one.
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver/node";
import type { SymbolKind as AgentSymbolKind } from "../analysis/api";
import type { Finding, Severity, SourceRange } from "../analysis/types";
import { CompletionItemKind, SymbolKind } from "vscode-languageserver/node";

export function toRange(r: SourceRange): Range {
  return { start: { line: r.startLine, character: r.startColumn }, end: { line: r.endLine, character: r.endColumn } };
}

function toSeverity(severity: Severity): DiagnosticSeverity {
  switch (severity) {
    case "error":
      return DiagnosticSeverity.Error;
    case "warning":
      return DiagnosticSeverity.Warning;
    case "hint":
      return DiagnosticSeverity.Hint;
    default:
      return DiagnosticSeverity.Information;
  }
}

/** What a code action needs to find the finding again without re-running anything. */
export interface DiagnosticData {
  file: string;
  code: string;
  start: number;
  end: number;
  fixes: number;
}

export function toDiagnostic(finding: Finding): Diagnostic {
  const data: DiagnosticData = { file: finding.file, code: finding.code, start: finding.range.start, end: finding.range.end, fixes: finding.fixes?.length ?? 0 };
  return {
    range: toRange(finding.range),
    severity: toSeverity(finding.severity),
    code: finding.code,
    source: "agent-lens",
    message: finding.message,
    data,
  };
}

export function toSymbolKind(kind: AgentSymbolKind): SymbolKind {
  switch (kind) {
    case "machine":
      return SymbolKind.Class;
    case "state":
      return SymbolKind.EnumMember;
    case "request":
      return SymbolKind.Function;
    case "model":
      return SymbolKind.Constant;
    case "actor":
      return SymbolKind.Function;
    case "agent":
      return SymbolKind.Object;
    case "fieldSet":
      return SymbolKind.Struct;
    case "field":
      return SymbolKind.Field;
    case "flow":
      return SymbolKind.Module;
    case "step":
      return SymbolKind.EnumMember;
    case "tool":
      return SymbolKind.Method;
    case "action":
      return SymbolKind.Event;
    default:
      return SymbolKind.Variable;
  }
}

export function toCompletionKind(kind: AgentSymbolKind | "duration"): CompletionItemKind {
  switch (kind) {
    case "state":
    case "step":
      return CompletionItemKind.EnumMember;
    case "request":
    case "actor":
    case "tool":
      return CompletionItemKind.Function;
    case "model":
      return CompletionItemKind.Constant;
    case "field":
      return CompletionItemKind.Field;
    case "flow":
      return CompletionItemKind.Module;
    case "action":
      return CompletionItemKind.Event;
    case "duration":
      return CompletionItemKind.Unit;
    default:
      return CompletionItemKind.Value;
  }
}
