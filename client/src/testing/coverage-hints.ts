// Hints on the states and steps no eval reaches (after coverage runs: coverage-store.ts says which, and only
// where every eval that could reach them ran), each a hint-level diagnostic — never a warning: an unreached
// state is a gap in the evals, not a mistake in the code — with the code action "Create an eval that reaches
// it" on a state of an exported machine. The action runs a probe through the harness (user code: trusted
// workspaces only) that asks canReach for the path and scripts it for simulateAgent (reach-eval.ts), then
// writes the new eval beside the evals that use the machine and opens it. A file's hints go as soon as it (or
// an eval of its machines) changes, until the next coverage run.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import * as vscode from "vscode";
import type { CatalogResult, CoverageModel } from "@agent-lens/protocol";
import type { ServerQueries } from "../server-queries";
import { closeness } from "../run/plan";
import type { RunQueue } from "../run/queue";
import { ensureTrusted } from "../run/trust";
import { toPath } from "../run/uris";
import { runSettings, workspaceFolderOf } from "../vscode-settings";
import type { CoverageHistory, Unreached } from "./coverage-store";
import { evalFileFor, evalSuffixOf, reachingEvalSource, runProbe, type ReachRequest } from "./reach-eval";

const CREATE_REACHING_EVAL = "agentLens.createReachingEval";
const CODES = { state: "uncovered-state", step: "uncovered-step" } as const;

interface Hint {
  unreached: Unreached;
  diagnostic: vscode.Diagnostic;
  /** What the code action runs (absent: no action — a flow step, an unexported machine). */
  reach?: ReachRequest & { near: string };
}

export class CoverageHints implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("agent-lens-coverage");
  private readonly hints = new Map<string, Hint[]>();
  private model: CoverageModel | undefined;
  private catalog: CatalogResult | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly server: ServerQueries, private readonly history: CoverageHistory, private readonly queue: RunQueue, private readonly log: (line: string) => void) {
    this.disposables = [
      this.diagnostics,
      vscode.languages.registerCodeActionsProvider([{ scheme: "file", language: "typescript" }, { scheme: "file", language: "javascript" }], {
        provideCodeActions: (document, range) => this.actionsAt(document.uri.fsPath, range),
      }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      vscode.commands.registerCommand(CREATE_REACHING_EVAL, (file: string, line: number) => this.createEval(file, line)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme !== "file" || !e.contentChanges.length) return;
        this.history.forget(e.document.uri.fsPath, this.model);
        if (this.model) this.show(this.model, undefined);
      }),
    ];
  }

  /** After a coverage run: what the evals of the whole workspace leave unreached. */
  async refresh(): Promise<void> {
    const catalog = await this.server.catalog();
    const model = await this.server.coverageModel(catalog.evalFiles.map((e) => toPath(e.uri)));
    if (!model) return;
    this.model = model;
    this.show(model, catalog);
  }

  private show(model: CoverageModel, catalog: CatalogResult | undefined): void {
    if (catalog) this.catalog = catalog;
    const exports = new Map((this.catalog?.machines ?? []).map((m) => [m.id, m.exportName]));
    this.hints.clear();
    for (const u of this.history.unreached(model)) {
      const range = new vscode.Range(u.range.startLine, u.range.startColumn, u.range.endLine, u.range.endColumn);
      const what = `${u.kind} "${u.path}" of ${u.agentKind} ${u.agent}`;
      const evals = u.evalFiles.map((f) => vscode.workspace.asRelativePath(f, false)).join(", ");
      const diagnostic = new vscode.Diagnostic(range, `No eval reaches ${what} (in the last coverage run of ${evals}).`, vscode.DiagnosticSeverity.Hint);
      diagnostic.source = "agent-lens";
      diagnostic.code = CODES[u.kind];
      const exportName = u.kind === "state" ? exports.get(u.graph) : undefined;
      const near = [...u.evalFiles].sort((a, b) => closeness(b, u.file) - closeness(a, u.file) || a.localeCompare(b))[0]!;
      const hint: Hint = { unreached: u, diagnostic, ...(exportName ? { reach: { machineFile: u.file, exportName, state: u.path, near } } : {}) };
      this.hints.set(u.file, [...(this.hints.get(u.file) ?? []), hint]);
    }
    this.diagnostics.clear();
    for (const [file, list] of this.hints) this.diagnostics.set(vscode.Uri.file(file), list.map((h) => h.diagnostic));
  }

  private actionsAt(file: string, range: vscode.Range): vscode.CodeAction[] {
    return (this.hints.get(file) ?? []).filter((h) => h.reach && h.diagnostic.range.intersection(range)).map((h) => {
      const action = new vscode.CodeAction("Create an eval that reaches it", vscode.CodeActionKind.QuickFix);
      action.diagnostics = [h.diagnostic];
      action.command = { command: CREATE_REACHING_EVAL, title: "Create an eval that reaches it", arguments: [file, h.diagnostic.range.start.line] };
      return action;
    });
  }

  /** The code action: probe through the harness, write the eval beside the others, open it. */
  private async createEval(file: string, line: number): Promise<void> {
    const reach = this.hints.get(file)?.find((h) => h.reach && h.diagnostic.range.start.line === line)?.reach;
    if (!reach) return void vscode.window.showInformationMessage("Agent Lens: that hint is gone (the file changed since the coverage run). Run the evals with Coverage again.");
    if (!ensureTrusted()) return;
    const answer = await this.queue.enqueue({
      key: `reach|${reach.machineFile}|${reach.exportName}|${reach.state}`,
      label: `Create an eval · ${reach.exportName} → ${reach.state}`,
      run: (start, signal) => runProbe(start, reach, { cwd: workspaceFolderOf(reach.machineFile), signal, ...runSettings(reach.machineFile) }),
    }).result;
    if (!answer) return; // cancelled
    if (!answer.ok) {
      this.log(`create an eval that reaches ${reach.exportName}.${reach.state}: ${answer.reason}`);
      return void vscode.window.showWarningMessage(`Agent Lens: no eval written for state "${reach.state}" of ${reach.exportName}: ${answer.reason}`);
    }
    const target = evalFileFor(reach, { folder: dirname(reach.near), suffix: evalSuffixOf(reach.near) }, existsSync);
    const uri = vscode.Uri.file(target);
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { contents: Buffer.from(reachingEvalSource(reach, answer, target)) });
    if (!(await vscode.workspace.applyEdit(edit))) return void vscode.window.showWarningMessage(`Agent Lens: could not write ${target}.`);
    this.log(`wrote ${target}: it reaches ${reach.state} on ${answer.path.join(" → ")}`);
    this.server.invalidate();
    await vscode.window.showTextDocument(uri);
    void vscode.window.showInformationMessage(`Agent Lens: wrote ${vscode.workspace.asRelativePath(target, false)}, an eval that reaches "${reach.state}" (${answer.path.join(" → ")}). Run it with Coverage to see the coverage rise.`);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
