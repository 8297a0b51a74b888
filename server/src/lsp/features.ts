// LSP handlers for the standard language features (code lenses: lenses.ts). Each converts positions to
// offsets, calls the pure feature function from server/src/analysis/features, and converts the result
// back. All guarded: an internal error is logged and answered with the empty result.
import { sep } from "node:path";
import {
  CodeActionKind,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  ErrorCodes,
  type CodeAction,
  type CompletionItem,
  type DocumentSymbol,
  type Hover,
  type Location,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import {
  completionsAfterEdit,
  completionsAt,
  definitionAt,
  documentSymbolTree,
  hoverAt,
  prepareRenameAt,
  quickFixesIn,
  referencesAt,
  renameEdits,
  type OutlineNode,
} from "../analysis/features/index";
import type { AnalysisWorkspace } from "../analysis/api";
import type { TextEdit } from "../analysis/types";
import { guarded } from "./guard";
import { toCompletionKind, toDiagnostic, toRange, toSymbolKind } from "./convert";
import type { UriMap } from "./paths";
import type { ServerParts } from "./parts";
import { leftOutMessage, toRenameWorkspaceEdit } from "./rename-edit";

function toWorkspaceEdit(uris: UriMap, edits: TextEdit[]): WorkspaceEdit {
  const changes: Record<string, LspTextEdit[]> = {};
  for (const e of edits) (changes[uris.toUri(e.file)] ??= []).push({ range: toRange(e.range), newText: e.newText });
  return { changes };
}

function relativeToFolder(root: string, file: string): string {
  return root && file.startsWith(root + sep) ? file.slice(root.length + 1) : file;
}

function toOutline(node: OutlineNode): DocumentSymbol {
  return {
    name: node.symbol.name || "(unnamed)",
    detail: node.symbol.detail,
    kind: toSymbolKind(node.symbol.kind),
    range: toRange(node.range),
    selectionRange: toRange(node.symbol.nameRange),
    children: node.children.map(toOutline),
  };
}

export function registerFeatures(parts: ServerParts): void {
  const { connection, docs } = parts;
  const err = parts.logError;

  /** Resolve a `{ textDocument, position }` request to the analysis and an offset, or undefined. */
  const at = (params: { textDocument?: { uri?: unknown }; position?: unknown } | undefined) => {
    const ctx = docs.contextFor(params?.textDocument?.uri);
    if (!ctx) return undefined;
    const offset = docs.offsetOf(ctx.document, params?.position as never);
    return offset === undefined ? undefined : { ...ctx, offset, index: ctx.folder.workspace as AnalysisWorkspace };
  };

  connection.onCompletion(
    guarded(err, "completion", () => [] as CompletionItem[], (params) => {
      const uri = params?.textDocument?.uri;
      const document = typeof uri === "string" ? docs.documents.get(uri) : undefined;
      const snapshot = document ? docs.snapshotFor(document.uri) : undefined;
      const offset = document && snapshot ? docs.offsetOf(document, params.position) : undefined;
      // Typing inside a string: the last analysis still knows the candidates; no need to re-analyze first.
      const fast = snapshot && offset !== undefined ? completionsAfterEdit(snapshot.analysis, snapshot.text, document!.getText(), offset) : undefined;
      let entries = fast;
      if (!entries) {
        const c = at(params);
        if (!c) return [];
        entries = completionsAt(c.analysis, c.offset, c.document.getText());
      }
      return entries.map(
        (entry, i): CompletionItem => ({
          label: entry.label,
          kind: toCompletionKind(entry.kind),
          detail: entry.detail,
          sortText: String(i).padStart(4, "0"),
          textEdit: { range: toRange(entry.replace), newText: entry.insertText },
        }),
      );
    }),
  );

  connection.onDefinition(
    guarded(err, "definition", () => [] as Location[], (params) => {
      const c = at(params);
      if (!c) return [];
      return definitionAt(c.index, c.analysis, c.offset).map((s) => ({ uri: docs.uris.toUri(s.file), range: toRange(s.nameRange) }));
    }),
  );

  connection.onReferences(
    guarded(err, "references", () => [] as Location[], (params) => {
      const c = at(params);
      if (!c) return [];
      return referencesAt(c.index, c.analysis, c.offset, params?.context?.includeDeclaration !== false).map((l) => ({ uri: docs.uris.toUri(l.file), range: toRange(l.range) }));
    }),
  );

  connection.onPrepareRename(
    guarded(err, "prepareRename", () => null, (params) => {
      const c = at(params);
      if (!c) return null;
      const prepared = prepareRenameAt(c.index, c.analysis, c.offset);
      return prepared ? { range: toRange(prepared.range), placeholder: prepared.placeholder } : null;
    }),
  );

  connection.onRenameRequest(
    guarded(err, "rename", () => null, (params): WorkspaceEdit | ResponseError<void> | null => {
      const c = at(params);
      if (!c || typeof params?.newName !== "string") return null;
      const result = renameEdits(c.index, c.analysis, c.offset, params.newName, (file) => docs.textOf(file));
      if (!result) return null;
      // A refused name is the user's to fix: tell them why (the editor shows the message).
      if (result.error !== undefined) return new ResponseError(ErrorCodes.InvalidParams, result.error);
      const { edit, leftOut } = toRenameWorkspaceEdit(result.edits, {
        toUri: (file) => docs.uris.toUri(file),
        versionOf: (uri) => docs.documents.get(uri)?.version ?? null,
        annotations: parts.annotatedEdits(),
      });
      if (leftOut.length) {
        // the client cannot ask about these places: never leave them out silently
        const message = leftOutMessage(leftOut, result.symbol?.name ?? params.newName, (file) => relativeToFolder(c.folder.root, file));
        connection.console.log(`[agent-lens] ${message}`);
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
      }
      return edit;
    }),
  );

  connection.onHover(
    guarded(err, "hover", () => null as Hover | null, (params) => {
      const c = at(params);
      if (!c) return null;
      const hover = hoverAt(c.index, c.analysis, c.offset);
      return hover ? { contents: { kind: "markdown", value: hover.markdown }, range: toRange(hover.range) } : null;
    }),
  );

  connection.onDocumentSymbol(
    guarded(err, "documentSymbol", () => [] as DocumentSymbol[], (params) => {
      const c = docs.contextFor(params?.textDocument?.uri);
      return c ? documentSymbolTree(c.analysis).map(toOutline) : [];
    }),
  );

  connection.onCodeAction(
    guarded(err, "codeAction", () => [] as CodeAction[], (params) => {
      const c = docs.contextFor(params?.textDocument?.uri);
      if (!c || !params?.range) return [];
      const only = params.context?.only;
      if (only?.length && !only.some((k) => CodeActionKind.QuickFix.startsWith(k))) return [];
      const start = docs.offsetOf(c.document, params.range.start);
      const end = docs.offsetOf(c.document, params.range.end) ?? start;
      if (start === undefined || end === undefined) return [];
      return quickFixesIn(c.analysis, start, end).map(({ finding, fix }) => ({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toDiagnostic(finding)],
        isPreferred: fix.preferred === true,
        edit: toWorkspaceEdit(docs.uris, fix.edits),
      }));
    }),
  );
}
