// The client's way to ask the language server what the analysis knows (the typed requests of
// @agent-lens/protocol): the workspace catalog (kept for a few seconds, dropped on every change) and the
// diagrams that belong to a file, a call, an eval file or a machine, and the coverage model of eval files.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import {
  CatalogRequest, CoverageModelRequest, DiagramRequest, EvalGraphsRequest, SiteGraphsRequest,
  type AgentGraph, type CatalogResult, type CoverageModel, type DiagramParams,
} from "@agent-lens/protocol";
import { EMPTY_CATALOG, type WorkspaceQueries } from "./run/queries";
import { toUri } from "./run/uris";

export class ServerQueries implements WorkspaceQueries, vscode.Disposable {
  private cached: Promise<CatalogResult> | undefined;
  private cachedAt = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the catalog was invalidated (a file changed, was created or deleted). */
  readonly onDidInvalidate = this.changed.event;

  constructor(private readonly client: BaseLanguageClient) {}

  /** The current catalog; empty (never throws) while the server is not up. */
  catalog(): Promise<CatalogResult> {
    // Fresh enough: 5 s (edits, saves and file events invalidate it sooner).
    if (!this.cached || Date.now() - this.cachedAt > 5_000) {
      this.cachedAt = Date.now();
      this.cached = this.fetch();
    }
    return this.cached;
  }

  invalidate(): void {
    this.cached = undefined;
    this.changed.fire();
  }

  private async fetch(): Promise<CatalogResult> {
    try {
      await this.running(20_000);
      const result = await this.client.sendRequest(CatalogRequest, {});
      const catalog: CatalogResult = { machines: result?.machines ?? [], flows: result?.flows ?? [], evalFiles: result?.evalFiles ?? [] };
      // Nothing yet usually means the server is still indexing: do not keep that answer.
      if (isEmpty(catalog)) this.cached = undefined;
      return catalog;
    } catch {
      this.cached = undefined; // ask again next time
      return EMPTY_CATALOG;
    }
  }

  siteGraphs(file: string, line: number): Promise<AgentGraph[]> {
    return this.ask(async () => (await this.client.sendRequest(SiteGraphsRequest, { uri: toUri(file), line })) ?? [], []);
  }

  evalGraphs(file: string): Promise<AgentGraph[]> {
    return this.ask(async () => (await this.client.sendRequest(EvalGraphsRequest, { uri: toUri(file) })) ?? [], []);
  }

  diagram(target: { kind: "machine" | "flow"; file: string; line?: number; machineId?: string; flowId?: string }): Promise<AgentGraph | undefined> {
    const params: DiagramParams | undefined = target.kind === "machine"
      ? target.machineId ? { kind: "machine", machineId: target.machineId, uri: toUri(target.file) } : undefined
      : target.flowId ? { kind: "flow", uri: toUri(target.file), flowId: target.flowId, line: target.line } : undefined;
    if (!params) return Promise.resolve(undefined);
    return this.ask(async () => (await this.client.sendRequest(DiagramRequest, params)) ?? undefined, undefined);
  }

  /** What agent coverage of these eval files (absolute paths) is computed against; undefined when the server
   *  cannot say (not running, or it failed). */
  coverageModel(files: string[]): Promise<CoverageModel | undefined> {
    return this.ask(async () => (await this.client.sendRequest(CoverageModelRequest, { uris: files.map(toUri) })) ?? undefined, undefined);
  }

  private async ask<T>(request: () => Promise<T>, fallback: T): Promise<T> {
    try {
      await this.running(10_000);
      return await request();
    } catch {
      return fallback;
    }
  }

  private async running(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (!this.client.isRunning()) {
      if (Date.now() > until) throw new Error("language server not running");
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function isEmpty(c: CatalogResult): boolean {
  return !c.machines.length && !c.flows.length && !c.evalFiles.length;
}
