// Agent Lens for VS Code: starts the language server and keeps the client thin. The run features (lenses'
// runs, the results panel, the Testing view, the run commands: run-features.ts) register once the client
// exists.
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { createLanguageClient } from "./language-client";
import { registerRunFeatures } from "./run-features";
import { ServerStatusItem } from "./status";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("Agent Lens", { log: true });
  client = createLanguageClient(context, output);
  const languageClient = client;
  const status = new ServerStatusItem(languageClient);
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand("agentLens.restartServer", async () => {
      output?.info("Restarting the Agent Lens language server…");
      await languageClient.restart();
    }),
    { dispose: () => void (languageClient.isRunning() ? languageClient.stop().catch(() => undefined) : undefined) },
  );

  registerRunFeatures(context, languageClient, output, status.onDidChangeIndex);

  try {
    await languageClient.start();
  } catch (error) {
    output.error(`The Agent Lens language server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c?.isRunning()) await c.stop().catch(() => undefined);
}
