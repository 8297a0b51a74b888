// The one results panel: a webview created on first use and reused after, kept alive while hidden.
// It only ever receives data by postMessage; the HTML shell carries no user strings (see html.ts).
import * as vscode from "vscode";
import { panelHtml } from "./html";
import type { FromPanel, ResultView, ToPanel } from "./protocol";

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = "agentLens.results";
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: ToPanel | undefined;
  private last: ToPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly onRerunEmitter = new vscode.EventEmitter<void>();
  /** "Run again" in the panel. */
  readonly onRerun = this.onRerunEmitter.event;

  constructor(private readonly extensionUri: vscode.Uri) {}

  /** Shows a result (creating or revealing the panel). `preserveFocus` keeps the cursor in the editor. */
  show(view: ResultView, options: { reveal?: boolean; preserveFocus?: boolean } = {}): void {
    this.post({ type: "show", view }, options.reveal ?? true, options.preserveFocus ?? true);
  }

  showMessage(message: string): void {
    this.post({ type: "empty", message }, true, true);
  }

  /** Updates the panel only if it exists (live progress must not pop a closed panel back open). */
  update(view: ResultView): void {
    if (this.panel) this.post({ type: "show", view }, false, true);
  }

  /** Reveal the panel with whatever it showed last. */
  reveal(): void {
    if (this.last) this.post(this.last, true, false);
    else this.showMessage("No results yet. Click a “Run seam” or “Run turns” lens, or run an eval from the Testing view.");
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  private post(message: ToPanel, reveal: boolean, preserveFocus: boolean): void {
    this.last = message;
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
        this.onRerunEmitter.fire();
        break;
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.onRerunEmitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Opens `file` in the editor next to the panel (the column the code usually lives in) at a location. */
export async function revealLocation(file: string, line: number, column: number, oneBased: boolean): Promise<void> {
  if (typeof file !== "string" || !Number.isFinite(line)) return;
  const l = Math.max(0, line - (oneBased ? 1 : 0));
  const c = Math.max(0, (Number.isFinite(column) ? column : 0) - (oneBased ? 1 : 0));
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(file) && !/^[a-z]:[\\/]/i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
  const position = new vscode.Position(l, c);
  const column0 = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn ?? vscode.ViewColumn.One;
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), viewColumn: column0, preserveFocus: false });
}
