// The `agentLens/status` notification: server state and how many definitions are indexed, re-sent
// (throttled) when the counts change, never twice the same.
import type { Connection } from "vscode-languageserver/node";
import { StatusNotification, type StatusParams } from "@agent-lens/protocol";
import type { Project } from "./project";

export class StatusReporter {
  state: StatusParams["state"] = "starting";
  /** Why the last indexing failed; shown while the state is "error". */
  failure: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private last = "";

  constructor(private readonly connection: Connection, private readonly project: Project) {}

  send(message?: string): void {
    const totals = this.project.totals();
    const detail = message ?? (this.state === "error" ? this.failure : undefined);
    const params: StatusParams = { state: this.state, definitions: totals.definitions, files: totals.files, ...(detail ? { message: detail } : {}) };
    const key = JSON.stringify(params);
    if (key === this.last) return;
    this.last = key;
    void this.connection.sendNotification(StatusNotification, params);
  }

  /** Send soon (counts change in bursts while files are analyzed). */
  sendSoon(): void {
    if (this.timer || this.state === "starting") return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, 100);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
