// Lens and palette runs in VS Code: LensRuns (lensRuns.ts) with the results panel, the workspace's trust
// and settings plugged in. The lens middleware asks it whether a lens's run is queued or running.
import * as vscode from "vscode";
import type { LensTarget } from "@agent-lens/protocol";
import type { ServerQueries } from "../serverQueries";
import type { ResultsPanel } from "../panel/resultsPanel";
import { runSettings, workspaceFolderOf } from "../settings";
import { LensRuns, type LensRunState } from "./lensRuns";
import type { RunTarget } from "./plan";
import type { RunQueue } from "./queue";
import { showFlowWithoutEval } from "./showDiagram";
import { ensureTrusted } from "./trust";

let nextRunId = 1;
/** Every run and diagram of the session gets the next id (the panel drops stale updates by it). */
export function newRunId(): number {
  return nextRunId++;
}

export class RunController implements vscode.Disposable {
  private readonly runs: LensRuns;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when any run of the queue changes state (lens titles follow it). */
  readonly onDidChangeRunning = this.changed.event;
  private readonly unsubscribe: () => void;

  constructor(server: ServerQueries, panel: ResultsPanel, queue: RunQueue, log: (line: string) => void) {
    this.runs = new LensRuns({
      queue,
      queries: server,
      views: panel,
      settingsFor: runSettings,
      folderOf: workspaceFolderOf,
      log,
      ensureTrusted,
      showMessage: (message) => {
        panel.showMessage(message);
        void vscode.window.showInformationMessage(message);
      },
      showFlowWithoutEval: (target, reason) => void showFlowWithoutEval(server, panel, target, reason),
      newRunId,
    });
    this.unsubscribe = queue.onDidChange(() => this.changed.fire());
  }

  stateOf(target: LensTarget): LensRunState | undefined {
    return this.runs.stateOf(target);
  }

  lastVerdictOf(target: LensTarget): string | undefined {
    return this.runs.lastVerdictOf(target);
  }

  /** The `agentLens.runLens` command. */
  async runLens(target: RunTarget | undefined): Promise<void> {
    await this.runs.run(target);
    this.changed.fire(); // the lens says its last verdict now
  }

  /** Runs again what produced the run `runId`, if a lens or command ran it. */
  rerun(runId: number): Promise<unknown> | undefined {
    return this.runs.rerun(runId);
  }

  dispose(): void {
    this.unsubscribe();
    this.changed.dispose();
  }
}
