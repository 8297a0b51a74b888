// Recordings in the Testing view (issue 25): the "Record" profile — after a modal confirmation that names the
// models it will call, as far as the file's last run and its recording know them — runs the asked files (a
// node:test file: only the asked tests, so only their part of the recording is rewritten) with every model
// call live, and the harness writes __recordings__/<file>.json. Every run of an eval file, whatever its
// profile, replaces that file's drift diagnostics: a replay that drifted gets one at the call that drifted,
// with the quick fix "Re-record this test", which records that test again (after the same confirmation).
// The "Record" lens the language server puts beside each run lens of an eval file records the test holding
// its call the same way.
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { RecordLensCommand, type HarnessEvent, type LensTarget } from "@agent-lens/protocol";
import { recordingPathOf } from "@agent-lens/harness";
import { toPath } from "../run/uris";
import type { EvalTestController } from "./eval-test-controller";
import { driftMarks, modelsOfRecording, modelsOfRun, namePatternsFor, recordQuestion, testAtLine, type DriftMark } from "./recordings";

const RERECORD_TEST = "agentLens.rerecordTest";

export class RecordProfile implements vscode.Disposable {
  readonly profile: vscode.TestRunProfile;
  private readonly drifts = vscode.languages.createDiagnosticCollection("agent-lens-recordings");
  /** The drifts of each eval file's last run (by its path). */
  private readonly marks = new Map<string, DriftMark[]>();
  /** The test each drift diagnostic's quick fix records again (by file, line and column of the diagnostic). */
  private readonly testAt = new Map<string, string>();
  /** The models each eval file's last run called. */
  private readonly models = new Map<string, string[]>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly tests: EvalTestController, private readonly log: (line: string) => void) {
    this.profile = tests.controller.createRunProfile("Record", vscode.TestRunProfileKind.Run, (request, token) => this.record(request, token), false);
    tests.onDidRunFile((fileItem, events) => this.ran(fileItem, events));
    this.disposables = [
      this.drifts,
      vscode.languages.registerCodeActionsProvider({ scheme: "file" }, {
        provideCodeActions: (document, range, context) => this.actionsFor(document.uri, range, context),
      }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      vscode.commands.registerCommand(RERECORD_TEST, (testId: string) => {
        const item = this.tests.itemOf(testId);
        if (item) return this.record(new vscode.TestRunRequest([item], undefined, this.profile), new vscode.CancellationTokenSource().token);
        void vscode.window.showInformationMessage("Agent Lens: that test is no longer in the Testing view.");
      }),
      vscode.commands.registerCommand(RecordLensCommand, (target: LensTarget) => this.recordLens(target)),
    ];
  }

  /** The Record lens: the test holding the lens's call (outside every test, or a plain script: the file). */
  private async recordLens(target: LensTarget): Promise<void> {
    const fileId = vscode.Uri.file(target.file).toString();
    if (!this.tests.itemOf(fileId)) await this.tests.refresh();
    const fileItem = this.tests.itemOf(fileId);
    if (!fileItem) {
      void vscode.window.showInformationMessage(`Agent Lens: ${vscode.workspace.asRelativePath(target.file, false)} is not in the Testing view (agentLens.testGlobs), so it has no test to record.`);
      return;
    }
    const test = target.line === undefined ? undefined : testAtLine(this.tests.testsOf(fileId), target.line - 1);
    const item = (test && this.tests.itemOf(test.id)) || fileItem;
    await this.record(new vscode.TestRunRequest([item], undefined, this.profile), new vscode.CancellationTokenSource().token);
  }

  private async record(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const files = this.tests.filesFor(request);
    const asked = new Set((request.include ?? []).map((i) => i.id));
    const targets = files.map((f) => {
      const file = toPath(f.id);
      const tests = asked.has(f.id) || !asked.size ? [] : this.tests.testsOf(f.id).filter((t) => asked.has(t.id)).map((t) => t.path.join(" > "));
      return { label: vscode.workspace.asRelativePath(file, false), tests, models: this.knownModels(file) };
    });
    if (!targets.length) return;
    // Untrusted: no question about models and cost for a run that cannot happen; the run says why.
    if (vscode.workspace.isTrusted) {
      const go = await vscode.window.showWarningMessage(recordQuestion(targets), { modal: true }, "Record");
      if (go !== "Record") return;
    }
    const written: string[] = [];
    await this.tests.runFiles(request, token, true, {
      label: "Record",
      overrides: (fileItem, wanted) => {
        const patterns = namePatternsFor(this.tests.testsOf(fileItem.id), wanted, fileItem.id);
        return { recordings: "record", ...(patterns ? { testNamePatterns: patterns } : {}) };
      },
      finished: (_file, events) => {
        for (const e of events) if (e.type === "recording") written.push(`${vscode.workspace.asRelativePath(e.path, false)} ${e.written ? "written" : "not written"}${e.tests.length ? ` (${e.tests.join(", ")})` : ""}${e.note ? `: ${e.note}` : ""}`);
      },
      beforeEnd: async (run) => {
        for (const line of written) {
          run.appendOutput(`recording: ${line}\r\n`);
          this.log(`recording: ${line}`);
        }
      },
    });
  }

  /** What the file's last run and its recording name (empty: nothing knows). */
  private knownModels(file: string): string[] {
    let text: string | undefined;
    try {
      text = readFileSync(recordingPathOf(file), "utf8");
    } catch {
      text = undefined;
    }
    return [...new Set([...(this.models.get(file) ?? []), ...modelsOfRecording(text)])];
  }

  /** After any run of an eval file: the models it called, and its drifts replace the ones it had. */
  private ran(fileItem: vscode.TestItem, events: readonly HarnessEvent[]): void {
    const file = toPath(fileItem.id);
    const models = modelsOfRun(events);
    if (models.length) this.models.set(file, models);
    const marks = driftMarks(this.tests.testsOf(fileItem.id), events);
    if (marks.length) this.marks.set(file, marks);
    else this.marks.delete(file);
    this.showDrifts();
  }

  private showDrifts(): void {
    this.testAt.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const [evalFile, marks] of this.marks) {
      for (const m of marks) {
        const at = m.location?.file || evalFile;
        const line = Math.max(0, (m.location?.line ?? 1) - 1);
        const column = Math.max(0, (m.location?.column ?? 1) - 1);
        const d = new vscode.Diagnostic(new vscode.Range(line, column, line, column + 1), m.message, vscode.DiagnosticSeverity.Warning);
        d.source = "agent-lens";
        d.code = "replay-drift";
        // What the quick fix records again: the test's item (the file's, for a plain script).
        d.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(m.recording), new vscode.Position(0, 0)), `recorded in ${vscode.workspace.asRelativePath(m.recording, false)} (test "${m.test}")`)];
        this.testAt.set(`${at}:${line}:${column}`, m.testId ?? vscode.Uri.file(evalFile).toString());
        byFile.set(at, [...(byFile.get(at) ?? []), d]);
      }
    }
    this.drifts.clear();
    for (const [file, list] of byFile) this.drifts.set(vscode.Uri.file(file), list);
  }

  private actionsFor(uri: vscode.Uri, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const mine = context.diagnostics.filter((d) => d.code === "replay-drift" && d.range.intersection(range) && this.testAt.has(`${uri.fsPath}:${d.range.start.line}:${d.range.start.character}`));
    return mine.map((d) => {
      const action = new vscode.CodeAction("Re-record this test", vscode.CodeActionKind.QuickFix);
      action.diagnostics = [d];
      action.isPreferred = true;
      action.command = { command: RERECORD_TEST, title: "Re-record this test", arguments: [this.testAt.get(`${uri.fsPath}:${d.range.start.line}:${d.range.start.character}`)] };
      return action;
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
