// Workspace trust: nothing of the user's code runs in an untrusted workspace. Diagnostics and language
// features keep working (they never execute user code).
import * as vscode from "vscode";

export const TRUST_MESSAGE = "Agent Lens runs your agents' code to run seams, turns and evals, so it needs a trusted workspace. Diagnostics and language features keep working.";
const MANAGE_TRUST = "Manage Workspace Trust";

/** True when running is allowed; otherwise tells the user why, offering to manage trust. */
export function ensureTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(TRUST_MESSAGE, MANAGE_TRUST).then((choice) => {
    if (choice === MANAGE_TRUST) void vscode.commands.executeCommand("workbench.trust.manage");
  });
  return false;
}
