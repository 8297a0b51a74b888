// Indexing runs: each workspace folder indexed in the background (indexer.ts) under a workDoneProgress,
// the status going indexing → ready (or error), and open documents re-checked when all runs are done.
import type { Connection } from "vscode-languageserver/node";
import type { OpenDocuments } from "./documents";
import { TOO_LARGE } from "./documents";
import { describeError } from "./guard";
import { indexFolder, type IndexProgress } from "./indexer";
import type { Folder, Project } from "./project";
import type { DiagnosticsPublisher } from "./publisher";
import type { SkipReporter } from "./skips";
import type { StatusReporter } from "./status";

const NO_PROGRESS: IndexProgress = { begin() {}, report() {}, done() {} };

export interface IndexingParts {
  connection: Connection;
  project: Project;
  docs: OpenDocuments;
  publisher: DiagnosticsPublisher;
  status: StatusReporter;
  skips: SkipReporter;
  log(message: string): void;
  logError(message: string): void;
}

export class Indexing {
  /** The client shows workDoneProgress (set from its capabilities at initialize). */
  progressSupported = false;
  private runs = 0;

  constructor(private readonly parts: IndexingParts) {}

  private async createProgress(): Promise<IndexProgress> {
    if (!this.progressSupported) return NO_PROGRESS;
    try {
      const reporter = await this.parts.connection.window.createWorkDoneProgress();
      return {
        begin: (title, message) => reporter.begin(title, 0, message, false),
        report: (pct, message) => reporter.report(pct, message),
        done: () => reporter.done(),
      };
    } catch {
      return NO_PROGRESS;
    }
  }

  async run(folders: Folder[]): Promise<void> {
    const { project, docs, status, skips, log, logError, publisher } = this.parts;
    this.runs++;
    status.state = "indexing";
    status.send();
    try {
      for (const folder of folders) {
        if (!folder.settings.enable || !folder.root) continue;
        const started = Date.now();
        const progress = await this.createProgress();
        const complete = await indexFolder(project, folder, { isOpen: (f) => docs.isOpen(f), log, skipped: (f) => skips.report(f, TOO_LARGE), progress });
        if (complete) log(`[agent-lens] indexed ${folder.root}: ${project.agentFiles(folder).length} agent files in ${Date.now() - started} ms`);
      }
      status.failure = undefined;
    } catch (error) {
      logError(`[agent-lens] indexing failed: ${describeError(error)}`);
      status.failure = `Indexing failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.runs--;
      if (this.runs === 0) {
        // Open documents still get diagnostics after a failed index; the status says what went wrong.
        status.state = status.failure ? "error" : "ready";
        status.send(status.failure);
        publisher.recheckAllOpen();
      }
    }
  }
}
