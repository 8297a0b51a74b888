// The language status item: whether the server runs, and how many agent definitions it indexed
// (from the server's `agentLens/status` notification).
import * as vscode from "vscode";
import { State, type LanguageClient } from "vscode-languageclient/node";
import { StatusNotification, type StatusParams } from "@agent-lens/protocol";
import { DOCUMENT_SELECTOR } from "./language-client";

function describeStatus(status: StatusParams | undefined, clientState: State): { text: string; detail: string; busy: boolean; error: boolean } {
  if (clientState === State.Stopped) return { text: "Agent Lens: stopped", detail: "The language server is not running", busy: false, error: true };
  if (clientState === State.Starting || !status || status.state === "starting") return { text: "Agent Lens: starting", detail: "Starting the language server", busy: true, error: false };
  const count = `${status.definitions} agent definition${status.definitions === 1 ? "" : "s"}`;
  const files = `${status.files} file${status.files === 1 ? "" : "s"}`;
  switch (status.state) {
    case "indexing":
      return { text: `Agent Lens: indexing (${count})`, detail: status.message ?? `${files} so far`, busy: true, error: false };
    case "error":
      return { text: "Agent Lens: error", detail: status.message ?? "The language server reported an error", busy: false, error: true };
    default:
      return { text: `Agent Lens: ${count}`, detail: `Indexed in ${files}`, busy: false, error: false };
  }
}

export class ServerStatusItem implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem("agentLens.status", DOCUMENT_SELECTOR);
  private readonly disposables: vscode.Disposable[] = [];
  private status: StatusParams | undefined;
  private clientState: State = State.Starting;
  private readonly indexChanged = new vscode.EventEmitter<void>();
  /** The server's index changed: agent files or definitions came or went, or indexing finished. */
  readonly onDidChangeIndex = this.indexChanged.event;

  constructor(client: LanguageClient) {
    this.item.name = "Agent Lens";
    this.item.command = { title: "Restart", command: "agentLens.restartServer" };
    this.disposables.push(
      client.onDidChangeState((e) => {
        this.clientState = e.newState;
        if (e.newState === State.Starting) this.status = undefined;
        this.render();
      }),
      client.onNotification(StatusNotification, (params) => {
        const before = this.status;
        this.status = params;
        this.render();
        if (!before || before.files !== params.files || before.definitions !== params.definitions || before.state !== params.state) this.indexChanged.fire();
      }),
    );
    this.render();
  }

  private render(): void {
    const d = describeStatus(this.status, this.clientState);
    this.item.text = d.text;
    this.item.detail = d.detail;
    this.item.busy = d.busy;
    this.item.severity = d.error ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.indexChanged.dispose();
    this.item.dispose();
  }
}
