// The Testing view's messages and helpers that need VS Code types but no controller: a failure as a
// TestMessage (with its expected / actual diff and location), and whether an eval file imports a saved file
// (run on save).
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import type { FailureInfo, SourceLocation } from "@agent-lens/protocol";
import { show } from "../panel/view-model";

function location(loc: SourceLocation | undefined): vscode.Location | undefined {
  if (!loc) return undefined;
  return new vscode.Location(vscode.Uri.file(loc.file), new vscode.Position(Math.max(0, loc.line - 1), Math.max(0, loc.column - 1)));
}

export function testMessage(failure: FailureInfo | undefined, item: vscode.TestItem): vscode.TestMessage {
  const text = failure ? (failure.code && !failure.message.includes(failure.code) ? `${failure.message} [${failure.code}]` : failure.message) : "Failed";
  const message = failure && (failure.expected !== undefined || failure.actual !== undefined)
    ? vscode.TestMessage.diff(text, show(failure.expected), show(failure.actual))
    : new vscode.TestMessage(text);
  message.location = location(failure?.location) ?? (item.uri && item.range ? new vscode.Location(item.uri, item.range) : undefined);
  return message;
}

/** Does the eval file's text import the saved file (by its file name without extension)? */
export function importsFile(item: vscode.TestItem, saved: vscode.Uri): boolean {
  if (!item.uri) return false;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === item.uri?.toString());
  let text: string;
  try {
    text = doc ? doc.getText() : readFileSync(item.uri.fsPath, "utf8");
  } catch {
    return false;
  }
  const stem = saved.path.split("/").pop()?.replace(/\.[cm]?[jt]sx?$/, "");
  if (!stem) return false;
  return new RegExp(`from\\s+["'][^"']*/${stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\.[cm]?[jt]sx?)?["']`).test(text);
}
