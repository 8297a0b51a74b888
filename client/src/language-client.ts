// Starts the Agent Lens language server (dist/server/server.js inside the extension) over node IPC for
// TypeScript and JavaScript documents, saved or untitled.
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { RecordLensCommand, SERVER_NODE_FLAGS, ShowDiagramCommand, type InitializationOptions } from "@agent-lens/protocol";

const CLIENT_ID = "agentLens";
const CLIENT_NAME = "Agent Lens";

const LANGUAGES = ["typescript", "javascript", "typescriptreact", "javascriptreact"];

/** Plain filters: valid both as a VS Code DocumentSelector and as a language client one. */
export const DOCUMENT_SELECTOR: Array<{ scheme: string; language: string }> = LANGUAGES.flatMap((language) => [
  { scheme: "file", language },
  { scheme: "untitled", language },
]);

export function createLanguageClient(context: vscode.ExtensionContext, outputChannel: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath("dist/server/server.js");
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, "--nolazy", "--inspect=6009"] } },
  };
  // We draw diagrams: the server adds a "Show diagram" lens beside each machine and flow; and we record: a
  // "Record" lens beside each run lens of an eval file (testing/record-profile.ts).
  const initializationOptions: InitializationOptions = { clientCommands: [ShowDiagramCommand, RecordLensCommand] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel,
    initializationOptions,
    // The server registers its file watchers and its `agentLens` configuration section dynamically; the
    // run lenses' titles come from lens-middleware.ts.
    middleware: {},
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}
