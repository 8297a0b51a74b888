// Diagnostics of open documents are pushed as the user types: each document has its own debounce timer
// (agentLens.diagnostics.debounceMs); a newer edit resets it, so stale versions are never analyzed, and a
// run whose version was overtaken meanwhile publishes nothing. Documents that import a changed file are
// re-checked too — the closed ones (and every indexed agent file, with agentLens.diagnostics.scope
// "workspace") by `closed` (closed-files.ts).
import type { Connection } from "vscode-languageserver/node";
import { DEFAULT_SETTINGS } from "@agent-lens/settings";
import { toDiagnostic } from "./convert";
import { ClosedFileDiagnostics } from "./closed-files";
import { DebouncedRunner } from "./debounced-runner";
import type { OpenDocuments } from "./documents";
import { describeError } from "./guard";
import type { Project } from "./project";
import type { SkipReporter } from "./skips";

export class DiagnosticsPublisher {
  private readonly runner: DebouncedRunner;
  private closed = false;
  /** The diagnostics of agent files that are not open. */
  readonly closedFiles: ClosedFileDiagnostics;

  constructor(
    private readonly connection: Connection,
    private readonly docs: OpenDocuments,
    private readonly project: Project,
    private readonly skips: SkipReporter,
    private readonly hooks: { logError(message: string): void; published(): void },
  ) {
    this.closedFiles = new ClosedFileDiagnostics(connection, docs, project, hooks.logError);
    this.runner = new DebouncedRunner((uri) => {
      try {
        this.publish(uri);
      } catch (error) {
        hooks.logError(`[agent-lens] diagnostics for ${uri} failed: ${describeError(error)}`);
      }
    });
  }

  private publish(uri: string): void {
    if (this.closed) return;
    const doc = this.docs.documents.get(uri);
    if (!doc) return;
    const version = doc.version;
    const file = this.docs.fileOf(doc);
    const folder = file ? this.project.folderFor(file) : undefined;
    if (!file || !folder?.settings.enable) {
      void this.connection.sendDiagnostics({ uri, version, diagnostics: [] });
      return;
    }
    this.docs.flush();
    const analysis = this.project.analyze(file);
    // A newer version arrived while this one was analyzed: its own run will publish.
    if (this.docs.documents.get(uri)?.version !== version) return;
    this.docs.remember(uri, doc.getText(), analysis);
    const diagnostics = analysis.findings.filter((f) => f.file === file).map(toDiagnostic);
    for (const f of analysis.findings) if (f.code === "analysis-skipped" && f.file === file) this.skips.report(file, f.message);
    void this.connection.sendDiagnostics({ uri, version, diagnostics });
    this.hooks.published();
  }

  private debounceFor(uri: string): number {
    const file = this.docs.uris.toFile(uri);
    return (file ? this.project.folderFor(file).settings : DEFAULT_SETTINGS).debounceMs;
  }

  /** Re-check a document after its folder's debounce (or `delay`). */
  schedule(uri: string, delay = this.debounceFor(uri)): void {
    this.runner.schedule(uri, delay);
  }

  cancel(uri: string): void {
    this.runner.cancel(uri);
  }

  /** Re-check the documents that import `file` (directly or not), open or not; a closed `file` itself too. */
  scheduleDependents(file: string, also: readonly string[] = []): void {
    const self = this.docs.uriOfOpen(file);
    const closed: string[] = self ? [] : [file];
    for (const dep of new Set([...this.project.dependentsOf(file), ...also])) {
      const uri = this.docs.uriOfOpen(dep);
      if (uri && uri !== self) this.schedule(uri);
      else if (!uri) closed.push(dep);
    }
    this.closedFiles.schedule(closed, true, self ? this.debounceFor(self) : 0);
  }

  /** Re-check every open document, and publish (or withdraw) every closed agent file's findings. */
  recheckAllOpen(delay = 0): void {
    for (const doc of this.docs.documents.all()) this.runner.schedule(doc.uri, delay);
    this.closedFiles.scheduleAll();
  }

  dispose(): void {
    this.closed = true;
    this.closedFiles.dispose();
    this.runner.dispose();
  }
}
