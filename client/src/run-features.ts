// Everything a user sees beyond the language client: run lenses, the results panel, the Test Explorer
// and the run commands. extension.ts calls registerRunFeatures once the client exists.
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { RunLensCommand, ShowDiagramCommand, type RunLensArgs, type ShowDiagramArgs } from "@agent-lens/protocol";
import { ServerQueries } from "./server-queries";
import { pickExplore, pickSeam, pickTurns } from "./commands";
import { ResultsPanel } from "./panel/results-panel";
import { RunHistory } from "./runs/history";
import { fileHistoryStore } from "./runs/history-store";
import { WarmChildren } from "@agent-lens/harness";
import { harnessRunner } from "./run/harness";
import { installLensMiddleware } from "./run/lens-middleware";
import { RunQueue } from "./run/queue";
import { showQueue } from "./run/queue-status";
import { openStarterEval, showDiagram } from "./run/show-diagram";
import { RunController } from "./run/run-controller";
import { showVerdictStatus } from "./run/verdict-status";
import { runJobs } from "./vscode-settings";
import { CoverageHints } from "./testing/coverage-hints";
import { CoverageProfile } from "./testing/coverage-profile";
import { CoverageHistory } from "./testing/coverage-store";
import { EvalTestController } from "./testing/eval-test-controller";
import { RecordProfile } from "./testing/record-profile";
import { RepeatProfile } from "./testing/repeat-profile";

const EVAL_LIKE = /\.(ts|mts|cts|js|mjs|cjs|tsx|jsx)$/;

export function registerRunFeatures(context: vscode.ExtensionContext, client: BaseLanguageClient, output?: vscode.OutputChannel, indexChanged: vscode.Event<void> = () => ({ dispose() {} })): void {
  const log = (line: string) => output?.appendLine(`[run] ${line}`);
  const server = new ServerQueries(client);
  // The last runs of each lens / eval file, for the panel's "Compare with …" (extension workspace storage).
  const runHistory = new RunHistory(fileHistoryStore(context.storageUri?.fsPath, log), randomUUID());
  const panel = new ResultsPanel(context.extensionUri, runHistory, (file) => server.evalGraphs(file));
  // The next run's process is started behind each run (never in an untrusted workspace: nothing of the
  // workspace's, not even its installed libraries, is loaded there), and ended on deactivation, when the
  // folders or the trust change, or after 5 idle minutes.
  const warm = new WarmChildren({ allowed: () => vscode.workspace.isTrusted, log });
  // One queue for every run: lenses, the palette's commands and the Testing view.
  const queue = new RunQueue(harnessRunner({ warm, log }), runJobs(), (error) => log(`internal error in a run: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
  const runs = new RunController(server, panel, queue, log);
  const tests = new EvalTestController(server, panel, queue, log);
  // The Testing view's other profiles: Coverage (with the hints on what no eval reaches), Record, Run ×N.
  const history = new CoverageHistory();
  const hints = new CoverageHints(server, history, queue, log);
  const coverage = new CoverageProfile(tests, server, history, () => void hints.refresh(), log);

  context.subscriptions.push(
    server, panel, runHistory, runs, tests, hints, coverage, new RecordProfile(tests, log), new RepeatProfile(tests), showQueue(queue), showVerdictStatus(panel.onDidShowRun),
    { dispose: () => queue.cancelAll() },
    { dispose: () => void warm.dispose() },
    vscode.workspace.onDidChangeWorkspaceFolders(() => void warm.clear("the workspace folders changed")),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void warm.clear("the workspace's trust changed")),
    installLensMiddleware(client, runs),
    panel.onRerun((runId) => void (runs.rerun(runId) ?? tests.rerun(runId))),
    panel.onNewEval(({ flowId, file }) => void openStarterEval(flowId, file)),
    vscode.commands.registerCommand(RunLensCommand, (...[target]: RunLensArgs) => runs.runLens(target)),
    vscode.commands.registerCommand("agentLens.runSeam", () => pickSeam(server, runs)),
    vscode.commands.registerCommand("agentLens.runTurns", () => pickTurns(server, runs)),
    vscode.commands.registerCommand("agentLens.explorePaths", () => pickExplore(server, runs)),
    vscode.commands.registerCommand("agentLens.showResults", () => panel.reveal()),
    vscode.commands.registerCommand(ShowDiagramCommand, (...[target]: ShowDiagramArgs | []) => showDiagram(server, panel, target)), // [] from the palette
    vscode.commands.registerCommand("agentLens.showTestResult", (item?: vscode.TestItem) => {
      const view = tests.viewFor(item);
      if (view) panel.show(view, { preserveFocus: false });
      else panel.showMessage("This eval has not run yet in this session.");
    }),
    // The catalog (machines, flows, eval files and their tests) follows the workspace.
    vscode.workspace.onDidSaveTextDocument((d) => { if (EVAL_LIKE.test(d.uri.path)) server.invalidate(); }),
    vscode.workspace.onDidCreateFiles(() => server.invalidate()),
    // The server's index changed (a file written outside the editor, by a terminal or git, was indexed).
    indexChanged(() => server.invalidate()),
    vscode.workspace.onDidDeleteFiles(() => server.invalidate()),
    vscode.workspace.onDidRenameFiles(() => server.invalidate()),
    onTypingPause((d) => { if (EVAL_LIKE.test(d.uri.path)) server.invalidate(); }, 600),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration("agentLens.testGlobs")) server.invalidate(); }),
    client.onDidChangeState(() => server.invalidate()),
  );
}

/** Calls `fn` for a document once typing in it has paused for `ms`. */
function onTypingPause(fn: (doc: vscode.TextDocument) => void, ms: number): vscode.Disposable {
  const timers = new Map<string, NodeJS.Timeout>();
  const sub = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.uri.scheme !== "file" || !e.contentChanges.length) return;
    const key = e.document.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => { timers.delete(key); fn(e.document); }, ms));
  });
  return { dispose: () => { sub.dispose(); for (const t of timers.values()) clearTimeout(t); } };
}
