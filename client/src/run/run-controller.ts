// Lens and palette runs in VS Code: LensRuns (lens-runs.ts) with the results panel, the workspace's trust
// and settings plugged in. The lens middleware asks it whether a lens's run is queued or running.
import * as vscode from "vscode";
import type { LensTarget } from "@agent-lens/protocol";
import type { ServerQueries } from "../server-queries";
import type { ResultsPanel } from "../panel/results-panel";
import { runSettings, workspaceFolderOf } from "../vscode-settings";
import { LensRuns, type LensRunState } from "./lens-runs";
import type { RunTarget } from "./plan";
import type { RunQueue } from "./queue";
import { newRunId } from "./run-ids";
import { showFlowWithoutEval } from "./show-diagram";
import { ensureTrusted } from "./trust";


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

  /** The `agentLens.runLens` command. A lens on a request several machines share asks which machine first. */
  async runLens(target: RunTarget | undefined): Promise<void> {
    const chosen = target?.choices?.length ? await pickMachine(target) : target;
    if (!chosen) return;
    await this.runs.run(chosen);
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

/** The machine to run a shared request's seam under (the target, without its choices), or undefined. */
async function pickMachine(target: RunTarget): Promise<RunTarget | undefined> {
  const items = (target.choices ?? []).map((c) => ({
    label: `$(type-hierarchy) ${c.name}`,
    description: `${vscode.workspace.asRelativePath(c.file, false)}:${c.line}`,
    choice: c,
  }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: `Run seam · ${target.request ?? ""}: which machine? (each of them invokes it)` });
  if (!picked) return undefined;
  const { choices: _all, ...rest } = target;
  const { name: _name, line: _line, ...machine } = picked.choice;
  return { ...rest, ...machine };
}
