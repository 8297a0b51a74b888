// Diagnostics of agent files that are not open (`agentLens.diagnostics.scope: "workspace"`, the default):
// published once the folder is indexed, again when a file changes on disk, is closed, or imports a file
// that changed, and withdrawn when the scope becomes `openFiles`, the folder is disabled or the file
// stops being an agent file. An open file's diagnostics are the open-document publisher's (publisher.ts);
// this one never touches them. Work goes in small time slices, so requests stay responsive meanwhile.
import type { Connection } from "vscode-languageserver/node";
import { toDiagnostic } from "./convert";
import type { OpenDocuments } from "./documents";
import { describeError } from "./guard";
import type { Project } from "./project";

const SLICE_MS = 12;

export class ClosedFileDiagnostics {
  /** Closed files whose findings this publisher has sent (so it knows what to withdraw). */
  private readonly published = new Set<string>();
  /** Files to (re)publish; `true`: say "no findings" even if nothing was published for it (it was just closed). */
  private readonly queue = new Map<string, boolean>();
  private running = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly docs: OpenDocuments,
    private readonly project: Project,
    private readonly logError: (message: string) => void,
  ) {}

  /** Re-publish these files (a change on disk, a file just closed: `explicit`, so its old findings go),
   *  after `delayMs` (edits in an open file that they import come in bursts). */
  schedule(files: Iterable<string>, explicit = true, delayMs = 0): void {
    for (const f of files) this.queue.set(f, explicit || this.queue.get(f) === true);
    if (!delayMs) return this.pump();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delayMs);
  }

  /** Every indexed agent file, and every file published so far (the scope or the folders changed). */
  scheduleAll(): void {
    const files = new Set(this.published);
    for (const folder of this.project.roots()) for (const f of this.project.agentFiles(folder)) files.add(f);
    this.schedule(files, false);
  }

  private pump(): void {
    if (this.running || this.closed) return;
    this.running = true;
    const step = () => {
      const started = performance.now();
      for (const [file, explicit] of this.queue) {
        this.queue.delete(file);
        try {
          this.publish(file, explicit);
        } catch (error) {
          this.logError(`[agent-lens] diagnostics for ${file} failed: ${describeError(error)}`);
        }
        if (performance.now() - started > SLICE_MS) break;
      }
      if (this.queue.size && !this.closed) setImmediate(step);
      else this.running = false;
    };
    setImmediate(step);
  }

  private publish(file: string, explicit: boolean): void {
    if (this.closed || this.docs.isOpen(file)) return; // an open file's diagnostics are the open publisher's
    const folder = this.project.folderFor(file);
    const uri = this.docs.uris.toUri(file);
    const wanted = folder.root !== "" && folder.settings.enable && folder.settings.diagnosticsScope === "workspace";
    const analysis = wanted ? this.project.analyze(file) : undefined;
    if (!analysis?.isAgentFile) {
      if (explicit || this.published.delete(file)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
      this.published.delete(file);
      return;
    }
    this.published.add(file);
    void this.connection.sendDiagnostics({ uri, diagnostics: analysis.findings.filter((f) => f.file === file).map(toDiagnostic) });
  }

  /** A file was opened: the open publisher owns its diagnostics from now on. */
  opened(file: string): void {
    this.published.delete(file);
    this.queue.delete(file);
  }

  dispose(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.queue.clear();
  }
}
