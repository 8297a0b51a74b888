// The verdict of the run on show in the results panel, in the window's status bar: the same line the
// panel's header says (RunVerdict.text), with the run's title; a click shows the results. Hidden while the
// panel shows no run (a diagram, a message): it never speaks of anything but what the panel shows.
import * as vscode from "vscode";
import type { ResultView } from "@agent-lens/protocol";

function verdictIcon(view: Pick<ResultView, "verdict">): string {
  const v = view.verdict;
  if (v.status === "running") return "$(sync~spin)";
  if (v.status === "cancelled") return "$(circle-slash)";
  if (v.status !== "passed") return "$(error)";
  return v.erroredResults && v.file === "passed" ? "$(warning)" : "$(pass)";
}

export function showVerdictStatus(onDidShowRun: vscode.Event<ResultView | undefined>): vscode.Disposable {
  const item = vscode.window.createStatusBarItem("agentLens.lastRun", vscode.StatusBarAlignment.Left, 0);
  item.name = "Agent Lens: last run";
  item.command = "agentLens.showResults";
  const sub = onDidShowRun((view) => {
    if (!view) return item.hide();
    item.text = `${verdictIcon(view)} ${view.title}: ${view.verdict.text}`;
    item.tooltip = `Agent Lens — ${view.title}: ${view.verdict.text}. Click to show the results.`;
    item.backgroundColor = view.verdict.status === "passed" || view.verdict.status === "running" || view.verdict.status === "cancelled" ? undefined : new vscode.ThemeColor("statusBarItem.errorBackground");
    item.show();
  });
  return vscode.Disposable.from(sub, item);
}
