// The Testing view's "Agent evals": eval files and their tests, discovered statically from the language
// server's catalog (so the tree is there before anything runs). Each file of a run is a job on the one
// run queue (file-runs.ts), beside the lenses' runs: one concurrency limit and one way to cancel for all.
import * as vscode from "vscode";
import type { HarnessEvent, ResultView, StaticTest } from "@agent-lens/protocol";
import { isEmpty, type ServerQueries } from "../server-queries";
import type { ResultsPanel } from "../panel/results-panel";
import { erroredText } from "../panel/verdict";
import type { RunQueue } from "../run/queue";
import { newRunId } from "../run/run-ids";
import { TRUST_MESSAGE, ensureTrusted } from "../run/trust";
import { toPath } from "../run/uris";
import { runSettings, workspaceFolderOf } from "../vscode-settings";
import { enqueueEvalFile, type EvalFileRequest, type TestRunSink } from "./file-runs";
import { importsFile, testMessage } from "./test-messages";
import { flattenTests, type FlatTest } from "./test-model";

/** How a profile runs files (the plain Run profile: all defaults). */
interface RunHow {
  /** The runs' word in the log and the queue ("Record", "Coverage"); default "Eval". */
  label?: string;
  /** Over the folder's settings, per file: a Record run's mode and the tests it runs. */
  overrides?(fileItem: vscode.TestItem, wanted: ReadonlySet<string>): EvalFileRequest["overrides"];
  /** Each file's events once it ran (coverage reads them). */
  finished?(file: string, events: readonly HarnessEvent[]): void;
  /** Before the test run ends (coverage is added to it then). */
  beforeEnd?(run: vscode.TestRun): Promise<void>;
}

export class EvalTestController implements vscode.Disposable {
  readonly controller: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  private readonly tests = new Map<string, FlatTest[]>();
  private readonly lastViews = new Map<string, ResultView>();
  /** Which eval file each of this controller's runs ran (for the panel's "Run again"). */
  private readonly fileOfRun = new Map<number, string>();
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** Called with every file's events after any run of it (drift, the models a file calls). */
  private readonly watchers: Array<(fileItem: vscode.TestItem, events: readonly HarnessEvent[]) => void> = [];

  constructor(private readonly server: ServerQueries, private readonly panel: ResultsPanel, private readonly queue: RunQueue, private readonly log: (line: string) => void) {
    this.controller = vscode.tests.createTestController("agentLens.evals", "Agent evals");
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.refresh();
    };
    this.controller.refreshHandler = async () => {
      this.server.invalidate();
      await this.refresh();
    };
    this.runProfile = this.controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, (request, token) => this.runHandler(request, token), true, undefined, true);
    this.disposables.push(
      this.controller,
      this.server.onDidInvalidate(() => this.scheduleRefresh()),
    );
    void this.discover();
  }

  /** The first discovery: the server may still be indexing, so ask again (backing off) until it answers. */
  private async discover(): Promise<void> {
    const started = Date.now();
    for (let delay = 1_000; ; delay = Math.min(delay * 1.5, 8_000)) {
      const catalog = await this.server.catalog();
      await this.refresh();
      if (!isEmpty(catalog) || Date.now() - started > 120_000 || this.disposed) return;
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /** Runs again the eval file of run `runId` (the panel's "Run again"), if this controller ran it. */
  rerun(runId: number): Promise<void> | undefined {
    const fileId = this.fileOfRun.get(runId);
    const item = fileId ? this.controller.items.get(fileId) : undefined;
    if (!item) return undefined;
    return this.runFiles(new vscode.TestRunRequest([item]), new vscode.CancellationTokenSource().token, true);
  }

  /** The last results of an eval file (by its item), for "Show in Results Panel". */
  viewFor(item: vscode.TestItem | undefined): ResultView | undefined {
    if (!item) return undefined;
    const fileId = item.id.split("::")[0];
    return this.lastViews.get(fileId);
  }

  scheduleRefresh(delay = 300): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), delay);
  }

  async refresh(): Promise<void> {
    const catalog = await this.server.catalog();
    const seen = new Set<string>();
    for (const evalFile of catalog.evalFiles) {
      const uri = vscode.Uri.parse(evalFile.uri);
      const fileId = uri.toString();
      seen.add(fileId);
      let fileItem = this.controller.items.get(fileId);
      if (!fileItem) {
        fileItem = this.controller.createTestItem(fileId, vscode.workspace.asRelativePath(uri, false), uri);
        this.controller.items.add(fileItem);
      }
      fileItem.label = vscode.workspace.asRelativePath(uri, false);
      fileItem.range = new vscode.Range(0, 0, 0, 0);
      const flat = flattenTests(fileId, evalFile.tests);
      this.tests.set(fileId, flat);
      this.syncChildren(fileItem, uri, evalFile.tests, flat);
    }
    const stale: string[] = [];
    this.controller.items.forEach((item) => { if (!seen.has(item.id)) stale.push(item.id); });
    for (const id of stale) {
      this.controller.items.delete(id);
      this.tests.delete(id);
    }
  }

  private syncChildren(fileItem: vscode.TestItem, uri: vscode.Uri, _tests: readonly StaticTest[], flat: FlatTest[]): void {
    const items = new Map<string, vscode.TestItem>();
    items.set(fileItem.id, fileItem);
    const childrenOf = new Map<string, vscode.TestItem[]>();
    for (const t of flat) {
      const parent = items.get(t.parentId) ?? fileItem;
      const item = parent.children.get(t.id) ?? this.controller.createTestItem(t.id, t.path.at(-1) ?? t.id, uri);
      const r = t.test.range;
      item.range = new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);
      item.label = t.path.at(-1) ?? t.id;
      items.set(t.id, item);
      const list = childrenOf.get(parent.id) ?? [];
      list.push(item);
      childrenOf.set(parent.id, list);
    }
    for (const [id, item] of items) item.children.replace(childrenOf.get(id) ?? []);
  }

  private async runHandler(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (request.continuous) {
      // Run on save: re-run the requested eval files (or the ones importing what was saved) each time.
      const watcher = vscode.workspace.onDidSaveTextDocument((doc) => {
        const files = this.filesFor(request).filter((f) => f.uri?.toString() === doc.uri.toString() || importsFile(f, doc.uri));
        if (files.length) void this.runFiles(new vscode.TestRunRequest(files.map((f) => f), request.exclude, request.profile), token, false);
      });
      token.onCancellationRequested(() => watcher.dispose());
      return;
    }
    await this.runFiles(request, token, true);
  }

  /** Calls `watch` with every file's events after each of its runs, whatever the profile. */
  onDidRunFile(watch: (fileItem: vscode.TestItem, events: readonly HarnessEvent[]) => void): void {
    this.watchers.push(watch);
  }

  /** The static tests of an eval file (by its item id). */
  testsOf(fileId: string): readonly FlatTest[] {
    return this.tests.get(fileId) ?? [];
  }

  /** The item with this id (a file's, or a test's below it). */
  itemOf(id: string): vscode.TestItem | undefined {
    const file = this.controller.items.get(id.split("::")[0]!);
    return !file || file.id === id ? file : findItem(file, id);
  }

  /** The file items a request covers (include / all, minus exclude). */
  filesFor(request: vscode.TestRunRequest): vscode.TestItem[] {
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const files = new Map<string, vscode.TestItem>();
    const add = (item: vscode.TestItem) => {
      const fileId = item.id.split("::")[0];
      const fileItem = this.controller.items.get(fileId);
      if (fileItem && !excluded.has(fileId)) files.set(fileId, fileItem);
    };
    if (request.include?.length) request.include.forEach(add);
    else this.controller.items.forEach(add);
    return [...files.values()];
  }

  /** Enqueues every file of the request on the run queue; resolves when all of them are done. */
  async runFiles(request: vscode.TestRunRequest, token: vscode.CancellationToken, userStarted: boolean, how: RunHow = {}): Promise<void> {
    if (!this.tests.size) await this.refresh();
    const run = this.controller.createTestRun(request, undefined, true);
    const files = this.filesFor(request);
    // The panel shows this run's last file at the end, unless the user asked the panel for something since.
    const panelRequest = userStarted ? this.panel.request() : undefined;
    try {
      if (!vscode.workspace.isTrusted) {
        ensureTrusted();
        for (const f of files) run.errored(f, new vscode.TestMessage(TRUST_MESSAGE));
        return;
      }
      const wanted = new Set((request.include ?? []).map((i) => i.id));
      const jobs = files.map((fileItem) => {
        const itemOf = (id: string): vscode.TestItem | undefined => (id === fileItem.id ? fileItem : findItem(fileItem, id));
        const asked = request.include?.length ? wanted : new Set([fileItem.id]);
        const file = toPath(fileItem.id);
        const sink: TestRunSink = { ...this.sinkFor(run, itemOf, fileItem), finished: (events) => {
          how.finished?.(file, events);
          for (const watch of this.watchers) watch(fileItem, events);
        } };
        const overrides = how.overrides?.(fileItem, asked);
        const handle = enqueueEvalFile(this.fileRunHost(), {
          fileId: fileItem.id, file, tests: this.tests.get(fileItem.id) ?? [], wanted: asked,
          ...(overrides ? { overrides } : {}), ...(how.label ? { label: how.label } : {}),
        }, sink);
        return { fileItem, handle };
      });
      const sub = token.onCancellationRequested(() => jobs.forEach((j) => j.handle.cancel()));
      try {
        for (const { fileItem, handle } of jobs) {
          const view = await handle.result;
          if (!view) continue;
          this.lastViews.set(fileItem.id, view);
          this.fileOfRun.set(view.runId, fileItem.id);
          if (panelRequest !== undefined && fileItem === files.at(-1)) this.panel.showIfLatest(panelRequest, view);
          else this.panel.finish(view);
        }
      } finally {
        sub.dispose();
      }
      if (!token.isCancellationRequested) await how.beforeEnd?.(run);
    } finally {
      run.end();
    }
  }

  fileRunHost() {
    return {
      queue: this.queue, queries: this.server, settingsFor: runSettings, folderOf: workspaceFolderOf, log: this.log, newRunId,
      describe: (file: string) => vscode.workspace.asRelativePath(file, false),
    };
  }

  /** The Testing view's side of a file's run: test ids → its items. */
  private sinkFor(run: vscode.TestRun, itemOf: (id: string) => vscode.TestItem | undefined, fileItem: vscode.TestItem): TestRunSink {
    const each = (id: string, f: (item: vscode.TestItem) => void) => {
      const item = itemOf(id);
      if (item) f(item);
    };
    return {
      enqueued: (id) => each(id, (i) => run.enqueued(i)),
      started: (id) => each(id, (i) => {
        i.description = undefined; // the last run's note goes with it
        run.started(i);
      }),
      skipped: (id) => each(id, (i) => run.skipped(i)),
      output: (text, id) => run.appendOutput(text.replace(/\r?\n/g, "\r\n"), undefined, itemOf(id) ?? fileItem),
      result: (o) => each(o.id, (item) => {
        // What the panel says beside "passed" (RunVerdict), said beside the test too.
        item.description = o.erroredResults ? erroredText(o.erroredResults) : undefined;
        switch (o.status) {
          case "passed": run.passed(item, o.durationMs); break;
          case "skipped": run.skipped(item); break;
          case "failed": run.failed(item, testMessage(o.failure, item), o.durationMs); break;
          case "errored": run.errored(item, testMessage(o.failure, item), o.durationMs); break;
        }
      }),
    };
  }

  dispose(): void {
    this.disposed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function findItem(root: vscode.TestItem, id: string): vscode.TestItem | undefined {
  let found: vscode.TestItem | undefined;
  root.children.forEach((child) => {
    if (found) return;
    found = child.id === id ? child : findItem(child, id);
  });
  return found;
}
