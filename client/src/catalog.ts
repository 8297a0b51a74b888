// What the workspace holds (machines, flows, eval files with their tests) and the diagrams of a file, as
// the language server reports them through the custom requests in server/src/lsp/protocol.ts.
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import type { LensTarget } from "../../server/src/analysis/api";
import { CatalogRequest, GraphsRequest, RunLensCommand, type CatalogResult, type GraphsParams, type GraphsResult } from "../../server/src/lsp/protocol";

const EMPTY: CatalogResult = { machines: [], flows: [], evalFiles: [] };

export class Catalog implements vscode.Disposable {
  private cached: Promise<CatalogResult> | undefined;
  private cachedAt = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the catalog was invalidated (a file changed, was created or deleted). */
  readonly onDidInvalidate = this.changed.event;

  constructor(private readonly client: BaseLanguageClient) {}

  /** The current catalog; empty (never throws) while the server is not up. */
  get(): Promise<CatalogResult> {
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
      if (!this.client.isRunning()) await waitRunning(this.client, 20_000);
      const result = await this.client.sendRequest<CatalogResult>(CatalogRequest, {});
      const catalog = { machines: result?.machines ?? [], flows: result?.flows ?? [], evalFiles: result?.evalFiles ?? [] };
      // Nothing yet usually means the server is still indexing: do not keep that answer.
      if (isEmpty(catalog)) this.cached = undefined;
      return catalog;
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

  /** The run targets of a file's lenses, straight from the server (no editor, no middleware). */
  async lensTargets(uri: string): Promise<LensTarget[]> {
    try {
      if (!this.client.isRunning()) return [];
      const lenses = await this.client.sendRequest<Array<{ command?: { command: string; arguments?: unknown[] } }> | null>("textDocument/codeLens", { textDocument: { uri } });
      return (lenses ?? []).flatMap((l) => (l.command?.command === RunLensCommand && l.command.arguments?.[0] ? [l.command.arguments[0] as LensTarget] : []));
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

export function isEmpty(c: CatalogResult): boolean {
  return !c.machines.length && !c.flows.length && !c.evalFiles.length;
}

/** A catalog `uri` (file://…) or an absolute path → an absolute path. */
export function toPath(uriOrPath: string): string {
  return /^file:/i.test(uriOrPath) ? vscode.Uri.parse(uriOrPath).fsPath : uriOrPath;
}
