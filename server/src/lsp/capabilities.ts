// What the server offers (the `initialize` result) and what it reads of the client's capabilities.
import { CodeActionKind, TextDocumentSyncKind, type ClientCapabilities, type InitializeResult } from "vscode-languageserver/node";

export interface ClientSupport {
  configuration: boolean;
  watchedFilesDynamic: boolean;
  configurationDynamic: boolean;
  workspaceFolders: boolean;
  progress: boolean;
  /** Workspace edits with change annotations (rename's places needing confirmation). */
  annotatedEdits: boolean;
}

export function clientSupport(caps: ClientCapabilities | undefined): ClientSupport {
  return {
    configuration: !!caps?.workspace?.configuration,
    watchedFilesDynamic: !!caps?.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    configurationDynamic: !!caps?.workspace?.didChangeConfiguration?.dynamicRegistration,
    workspaceFolders: !!caps?.workspace?.workspaceFolders,
    progress: !!caps?.window?.workDoneProgress,
    annotatedEdits: !!caps?.workspace?.workspaceEdit?.documentChanges && !!caps?.workspace?.workspaceEdit?.changeAnnotationSupport,
  };
}

export const SERVER_CAPABILITIES: InitializeResult = {
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    completionProvider: { triggerCharacters: ['"', "'", "`", ".", "#"], resolveProvider: false },
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    hoverProvider: true,
    documentSymbolProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    codeLensProvider: { resolveProvider: false },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  },
  serverInfo: { name: "agent-lens", version: "0.1.0" },
};
