// What the workspace holds (machines, flows, eval files with their tests) and the diagrams of a file, as
// the language server reports them through the custom requests in server/src/lsp/protocol.ts.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { CatalogRequest, GraphsRequest, type CatalogResult, type GraphsParams, type GraphsResult } from "../../server/src/lsp/protocol";

const EMPTY: CatalogResult = { machines: [], flows: [], evalFiles: [] };

export class Catalog implements vscode.Disposable {
  private cached: Promise<CatalogResult> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the catalog was invalidated (a file changed, was created or deleted). */
  readonly onDidInvalidate = this.changed.event;

  constructor(private readonly client: BaseLanguageClient) {}

  /** The current catalog; empty (never throws) while the server is not up. */
  get(): Promise<CatalogResult> {
    this.cached ??= this.fetch();
    return this.cached;
  }

  invalidate(): void {
    this.cached = undefined;
    this.changed.fire();
  }

  private async fetch(): Promise<CatalogResult> {
    try {
      if (!this.client.isRunning()) await waitRunning(this.client, 20_000);
      const result = await this.client.sendRequest<CatalogResult>(CatalogRequest, {});
      return { machines: result?.machines ?? [], flows: result?.flows ?? [], evalFiles: result?.evalFiles ?? [] };
    } catch {
      this.cached = undefined; // ask again next time
      return EMPTY;
    }
  }

  async graphs(uri: string): Promise<GraphsResult> {
    try {
      if (!this.client.isRunning()) await waitRunning(this.client, 10_000);
      return (await this.client.sendRequest<GraphsResult>(GraphsRequest, { uri } satisfies GraphsParams)) ?? [];
    } catch {
      return [];
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function waitRunning(client: BaseLanguageClient, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!client.isRunning()) {
    if (Date.now() > until) throw new Error("language server not running");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A catalog `uri` (file://…) or an absolute path → an absolute path. */
export function toPath(uriOrPath: string): string {
  return /^file:/i.test(uriOrPath) ? vscode.Uri.parse(uriOrPath).fsPath : uriOrPath;
}
