// The run queue in the window: one progress item while anything runs or waits ("Agent Lens: 2 running,
// 1 queued"), and the queue's limit following `agentLens.run.jobs`.
import * as vscode from "vscode";
import { runJobs } from "../vscode-settings";
import type { RunQueue } from "./queue";

export function showQueue(queue: RunQueue): vscode.Disposable {
  let finish: (() => void) | undefined;
  let report: ((message: string) => void) | undefined;
  const describe = () => {
    const { running, queued } = queue.snapshot();
    return `${running.length} running${queued.length ? `, ${queued.length} queued` : ""}${running.length === 1 && !queued.length ? ` · ${running[0]!.label}` : ""}`;
  };
  const unsubscribe = queue.onDidChange(() => {
    const { running, queued } = queue.snapshot();
    if (!running.length && !queued.length) {
      finish?.();
      finish = report = undefined;
      return;
    }
    if (report) return report(describe());
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Agent Lens" }, (progress) => {
      report = (message) => progress.report({ message });
      report(describe());
      return new Promise<void>((resolve) => (finish = resolve));
    });
  });
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("agentLens.run.jobs")) queue.setLimit(runJobs());
  });
  return { dispose: () => { unsubscribe(); settings.dispose(); finish?.(); } };
}
