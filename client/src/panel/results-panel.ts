// The one results panel: a webview created on first use and reused after, kept alive while hidden.
// It only ever receives data by postMessage; the HTML shell carries no user strings (see html.ts).
// What it shows is the user's last request (panel-state.ts): other runs finishing meanwhile go to the
// panel's recent list. Every finished run goes into the run history (when there is one), from which
// "Compare with previous run" / "… last passing run" draw; a run's model calls are priced when drawn.
import * as vscode from "vscode";
import type { RunHistory } from "../runs/history";
import { modelPrices } from "../vscode-settings";
import { buildCompareView } from "./compare";
import { panelHtml } from "./html";
import { priceView } from "./model-calls";
import { PanelState, type Decision, type Shown } from "./panel-state";
import { sourceOf } from "./view-model";
import type { AgentGraph, DiagramPanelView, FromPanel, ResultView, ToPanel } from "@agent-lens/protocol";

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = "agentLens.results";
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: ToPanel | undefined;
  private last: ToPanel | undefined;
  private readonly state = new PanelState();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly onRerunEmitter = new vscode.EventEmitter<number>();
  /** "Run again" in the panel, with the run id on show. */
  readonly onRerun = this.onRerunEmitter.event;
  private readonly onNewEvalEmitter = new vscode.EventEmitter<{ flowId: string; file: string }>();
  /** "New eval file for <flow>" on a flow's page. */
  readonly onNewEval = this.onNewEvalEmitter.event;
  private readonly onDidShowRunEmitter = new vscode.EventEmitter<ResultView | undefined>();
  /** A run's view was drawn in the panel (the run on show, or its progress); undefined: no run is on show
   *  (a diagram or a message took the panel). */
  readonly onDidShowRun = this.onDidShowRunEmitter.event;

  /** `graphsOf`: an eval file's diagrams, for comparing runs whose view has none (a Testing view run whose
   *  diagrams did not come in time). */
  constructor(private readonly extensionUri: vscode.Uri, private readonly history?: RunHistory, private readonly graphsOf?: (file: string) => Promise<AgentGraph[]>) {}

  /** A run the user started: it takes the panel (revealed, the cursor stays in the editor). */
  start(view: ResultView): void {
    this.apply(this.state.show({ type: "show", view }));
  }

  /** Shows a result the user asked for ("Show in Results Panel"). */
  show(view: ResultView, options: { preserveFocus?: boolean } = {}): void {
    this.remember(view);
    this.apply(this.state.show({ type: "show", view }), options.preserveFocus ?? true);
  }

  /** "Show diagram": a diagram with nothing run; it takes the panel like a run would. */
  showDiagram(view: DiagramPanelView): void {
    this.apply(this.state.show({ type: "diagram", view }));
  }

  /** Notes that the user asked for something whose result comes later (a test run); see showIfLatest. */
  request(): number {
    return this.state.request();
  }

  /** Shows `view` when nothing was asked of the panel since `request` (else keeps it in the recent list). */
  showIfLatest(request: number, view: ResultView): void {
    this.remember(view);
    this.settle(this.state.showIfLatest(request, { type: "show", view }));
  }

  /** Live progress of a run: drawn only when that run is on show, and never pops a closed panel open. */
  update(view: ResultView): void {
    const decision = this.state.update({ type: "show", view });
    if (decision && this.panel) this.apply(decision);
  }

  /** A run's final result: drawn (and the panel revealed) when that run is on show; kept otherwise. */
  finish(view: ResultView): void {
    this.remember(view);
    this.settle(this.state.finish({ type: "show", view }));
  }

  showMessage(message: string): void {
    this.state.clear();
    this.post({ type: "empty", message }, true, true);
  }

  /** Reveal the panel with whatever it showed last. */
  reveal(): void {
    if (this.last) this.post(this.last, true, false);
    else this.showMessage("No results yet. Click a “Run seam” or “Run turns” lens, or run an eval from the Testing view.");
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  /** Draws a decision, or — when a kept run changed nothing on show — refreshes the recent list. */
  private settle(decision: Decision | undefined): void {
    if (decision) this.apply(decision);
    else {
      const current = this.state.current();
      if (current && this.panel) this.post(this.message(current), false, true);
    }
  }

  private apply(decision: Decision, preserveFocus = true): void {
    this.post(this.message(decision.shown), decision.reveal, preserveFocus);
  }

  private message(shown: Shown): ToPanel {
    if (shown.type !== "show") return { ...shown, recent: this.state.recent() };
    let view = priceView(shown.view, modelPrices(shown.view.file));
    const marks = this.history?.marks(view);
    if (marks) view = { ...view, history: marks };
    return { type: "show", view, recent: this.state.recent() };
  }

  /** A finished run goes into the history (once; the view must be the one buildResultView made). */
  private remember(view: ResultView): void {
    const source = sourceOf(view);
    if (source && view.status !== "running") this.history?.record(view, source);
  }

  /** The run on show beside an earlier run of the same thing. */
  private async compare(against: "previous" | "passing"): Promise<void> {
    const shown = this.state.current();
    if (shown?.type !== "show" || !this.history) return;
    const view = shown.view;
    const runs = this.history.earlier(view);
    const a = against === "previous" ? runs.previous : runs.passing;
    if (!a || !runs.current) {
      void vscode.window.showInformationMessage(against === "previous" ? "No earlier run of this is kept." : "No earlier run of this passed.");
      return;
    }
    const graphs = view.diagrams.length ? view.diagrams.map((d) => d.graph) : await this.graphsOf?.(view.file).catch(() => []) ?? [];
    const compared = buildCompareView({ title: view.title, file: view.file, line: view.line, against, a, b: runs.current, graphs });
    this.post({ type: "compare", view: compared, recent: this.state.recent() }, true, true);
  }

  private post(message: ToPanel, reveal: boolean, preserveFocus: boolean): void {
    this.last = message;
    this.onDidShowRunEmitter.fire(message.type === "show" ? message.view : undefined);
    const panel = this.ensure(preserveFocus);
    if (reveal && !panel.visible) panel.reveal(panel.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus);
    if (this.ready) void panel.webview.postMessage(message);
    else this.pending = message;
  }

  private ensure(preserveFocus: boolean): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const media = vscode.Uri.joinPath(this.extensionUri, "dist", "media");
    const panel = vscode.window.createWebviewPanel(ResultsPanel.viewType, "Agent Lens Results", { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [media],
      enableFindWidget: true,
    });
    panel.webview.html = panelHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, "panel.js")).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, "panel.css")).toString(),
    });
    this.ready = false;
    panel.webview.onDidReceiveMessage((m: FromPanel) => this.receive(m), undefined, this.disposables);
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    }, undefined, this.disposables);
    this.panel = panel;
    return panel;
  }

  private receive(message: FromPanel): void {
    switch (message?.type) {
      case "ready":
        this.ready = true;
        if (this.pending && this.panel) void this.panel.webview.postMessage(this.pending);
        this.pending = undefined;
        break;
      case "reveal":
        void revealLocation(message.file, message.line, message.column, message.oneBased);
        break;
      case "rerun":
        if (this.state.pinned !== undefined) this.onRerunEmitter.fire(this.state.pinned);
        break;
      case "compare":
        if (message.against === "previous" || message.against === "passing") void this.compare(message.against);
        break;
      case "newEval":
        if (typeof message.flowId === "string" && typeof message.file === "string") this.onNewEvalEmitter.fire({ flowId: message.flowId, file: message.file });
        break;
      case "select": {
        const decision = this.state.select(message.runId);
        if (decision) this.apply(decision);
        break;
      }
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.onRerunEmitter.dispose();
    this.onDidShowRunEmitter.dispose();
    this.onNewEvalEmitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Opens `file` in the editor next to the panel (the column the code usually lives in) at a location. */
async function revealLocation(file: string, line: number, column: number, oneBased: boolean): Promise<void> {
  if (typeof file !== "string" || !Number.isFinite(line)) return;
  const l = Math.max(0, line - (oneBased ? 1 : 0));
  const c = Math.max(0, (Number.isFinite(column) ? column : 0) - (oneBased ? 1 : 0));
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(file) && !/^[a-z]:[\\/]/i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
  const position = new vscode.Position(l, c);
  const column0 = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn ?? vscode.ViewColumn.One;
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), viewColumn: column0, preserveFocus: false });
}
