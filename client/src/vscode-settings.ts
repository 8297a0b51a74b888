// The run settings of a file's folder, as VS Code gives them, read through the one settings module; a value
// it cannot take as given (agentLens.run.timeoutSeconds above 86400, say) is clamped or replaced by the
// module's rule. The language server's warning names it (it reads every setting; the client says nothing).
import * as vscode from "vscode";
import { parseSettings } from "@agent-lens/settings";
import { DEFAULT_MODEL_PRICES, type ModelPrice } from "@agent-lens/settings/model-prices";
import { runSettingsOf, type RunSettings } from "./run/settings";

function sectionFor(resource?: vscode.Uri): ReturnType<typeof runSettingsOf> {
  return runSettingsOf(vscode.workspace.getConfiguration(undefined, resource).get("agentLens"));
}

export function runSettings(file?: string): RunSettings {
  return sectionFor(file ? vscode.Uri.file(file) : undefined).settings;
}

/** `agentLens.run.jobs`: runs at once (the first workspace folder's value: the queue is one for all). */
export function runJobs(): number {
  return sectionFor(vscode.workspace.workspaceFolders?.[0]?.uri).jobs;
}

export function workspaceFolderOf(file: string): string {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? file.replace(/[\\/][^\\/]*$/, "");
}

/** The prices a file's folder estimates model calls with: `agentLens.run.modelPrices` over the table. */
export function modelPrices(file?: string): Record<string, ModelPrice> {
  const section = vscode.workspace.getConfiguration(undefined, file ? vscode.Uri.file(file) : undefined).get("agentLens");
  return { ...DEFAULT_MODEL_PRICES, ...parseSettings(section).settings.run.modelPrices };
}
