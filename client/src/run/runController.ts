// Runs what a lens or a command asks for, through the harness, and shows it in the results panel.
// One run per lens at a time: clicking a running lens cancels it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import * as vscode from "vscode";
import type { AgentGraph, LensTarget } from "../../../server/src/analysis/api";
import type { HarnessEvent, SourceLocation } from "../../../runtime/src/harness/events";
import type { TurnReportPayload } from "../../../runtime/src/shared/report";
import { toPath, type Catalog } from "../catalog";
import type { ResultsPanel } from "../panel/resultsPanel";
import type { GeneratedOrigin } from "../panel/generated";
import { buildResultView } from "../panel/viewModel";
import { runFile, type RuntimeMode } from "./harness";
import type { LensState } from "./lensMiddleware";
import { closeness, planRun, subjectOf, targetKey, type RunTarget } from "./plan";
import { flowGraphsOfRun, reachableFiles } from "./runGraphs";
import { ensureTrusted } from "./trust";

let nextRunId = 1;
export function newRunId(): number {
  return nextRunId++;
}

export interface RunSettings {
  timeoutMs: number;
  runtime: RuntimeMode;
}

export function runSettings(resource?: vscode.Uri): RunSettings {
  const config = vscode.workspace.getConfiguration("agentLens", resource);
  const seconds = config.get<number>("run.timeoutSeconds", 30);
  const runtime = config.get<string>("run.runtime", "auto");
  return {
    timeoutMs: Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000,
    runtime: runtime === "bundled" || runtime === "workspace" ? runtime : "auto",
  };
}

export function workspaceFolderOf(file: string): string {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? dirname(file);
}

export class RunController implements LensState, vscode.Disposable {
  private readonly running = new Map<string, AbortController>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeRunning = this.changed.event;
  /** What each run of this session ran, for the panel's "Run again" (which re-runs the run on show). */
  private readonly targets = new Map<number, RunTarget>();

  constructor(private readonly catalog: Catalog, private readonly panel: ResultsPanel, private readonly log: (line: string) => void) {}

  isRunning(target: LensTarget): boolean {
    return this.running.has(targetKey(target));
  }

  /** The `agentLens.runLens` command. */
  async runLens(target: RunTarget | undefined): Promise<void> {
    if (!target || typeof target !== "object" || typeof target.file !== "string") {
      void vscode.window.showErrorMessage("Agent Lens: this lens has no run target.");
      return;
    }
    const key = targetKey(target);
    const going = this.running.get(key);
    if (going) {
      going.abort();
      return;
    }
    if (!ensureTrusted()) {
      this.log(`refused to run ${target.kind} in ${target.file}: the workspace is not trusted`);
      return;
    }
    const abort = new AbortController();
    this.running.set(key, abort);
    this.changed.fire();
    try {
      await this.execute(target, abort.signal);
    } finally {
      this.running.delete(key);
      this.changed.fire();
    }
  }

  /** Runs again what produced the run `runId`, if this controller ran it. */
  rerun(runId: number): Promise<void> | undefined {
    const target = this.targets.get(runId);
    return target ? this.runLens(target) : undefined;
  }

  cancelAll(): void {
    for (const abort of this.running.values()) abort.abort();
  }

  private async execute(target: RunTarget, signal: AbortSignal): Promise<void> {
    // A lens on the user's own call (it has a line) runs its file: no need to wait for the catalog.
    const catalog = target.line !== undefined ? { machines: [], flows: [], evalFiles: [] } : await this.catalog.get();
    const evalFiles = new Set(catalog.evalFiles.map((f) => toPath(f.uri)));
    const evalCall = target.kind === "run-seam" && target.line === undefined && !evalFiles.has(target.file) ? await this.evalCallFor(target, catalog.evalFiles.map((f) => f.uri)) : undefined;
    const plan = planRun(target, {
      isEvalFile: (file) => evalFiles.has(file),
      evalFilesUsingFlow: (flowId, flowFile) => [...evalFiles].filter((f) => mentionsFlow(f, flowId, flowFile)),
      evalCallFor: () => evalCall,
    });
    this.log(`run ${plan.kind}: ${plan.title}`);
    if (plan.kind === "none") {
      this.panel.showMessage(plan.reason);
      void vscode.window.showInformationMessage(plan.reason);
      return;
    }
    const runId = newRunId();
    this.targets.set(runId, target);
    const started = Date.now();
    const graphs = this.graphsFor(target);
    const events: HarnessEvent[] = [];
    const file = plan.kind === "files" ? plan.files[0] : plan.kind === "generated" ? plan.agentFile : plan.file;
    const focus = plan.kind === "file" ? plan.focus : undefined;
    // A generated program lives in a temporary folder: its locations map back to where the lens sits.
    const dir = plan.kind === "generated" ? mkdtempSync(join(tmpdir(), "agent-lens-run-")) : undefined;
    const generated: GeneratedOrigin | undefined = plan.kind === "generated" && dir
      ? { entry: join(dir, plan.entryName), origin: target.anchor ?? (await this.definitionOf(target)) ?? { file: plan.agentFile, line: 1, column: 1 }, label: plan.label }
      : undefined;
    const subject = subjectOf(target);
    let shownGraphs: AgentGraph[] = [];
    const view = (final: boolean) => buildResultView({ runId, title: plan.title, file, focus, subject, generated, events: final ? events : events.filter((e) => e.type !== "end"), graphs: shownGraphs });
    this.panel.start(view(false));
    let pendingDraw: NodeJS.Timeout | undefined;
    const onEvent = (event: HarnessEvent) => {
      events.push(event);
      if (event.type === "result" && !pendingDraw) pendingDraw = setTimeout(() => { pendingDraw = undefined; this.panel.update(view(false)); }, 60);
    };

    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Agent Lens: ${plan.title}` }, async () => {
      const settings = runSettings(vscode.Uri.file(file));
      const cwd = workspaceFolderOf(file);
      if (plan.kind === "generated" && generated && dir) {
        try {
          writeFileSync(generated.entry, plan.source);
          await runFile({ file: generated.entry, cwd, signal, onEvent, ...settings });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      } else if (plan.kind === "file" || plan.kind === "files") {
        const files = plan.kind === "files" ? plan.files : [plan.file];
        const ends: Array<Extract<HarnessEvent, { type: "end" }>> = [];
        for (const f of files) {
          if (signal.aborted) break;
          const end = await runFile({ file: f, cwd: workspaceFolderOf(f), signal, onEvent: (e) => (e.type === "end" ? ends.push(e) : onEvent(e)), ...settings });
          if (!ends.includes(end)) ends.push(end);
        }
        events.push(combineEnds(file, ends, Date.now() - started));
      }
    });
    if (pendingDraw) clearTimeout(pendingDraw);
    // The result first; the diagram follows as soon as the server has answered (it is not worth a wait).
    const diagrams = withTimeout(graphs.then(async (g) => [...g, ...(await this.flowGraphs(events, file))]), 15_000, []);
    shownGraphs = await withTimeout(diagrams, 50, []);
    const final = view(true);
    this.panel.finish(final);
    if (!shownGraphs.length) {
      void diagrams.then((g) => {
        if (!g.length) return;
        shownGraphs = g;
        this.panel.update(view(true));
      });
    }
    this.log(`${plan.title}: ${final.subject ? `${final.subject.label} ${final.subject.status}, ` : ""}file ${final.fileStatus} in ${Date.now() - started} ms`);
  }

  /** Where a machine is defined (a palette run has no lens to point back to). */
  private async definitionOf(target: LensTarget): Promise<SourceLocation | undefined> {
    const { machines } = await this.catalog.get();
    const m = machines.find((x) => x.id === target.machineId) ?? machines.find((x) => toPath(x.uri) === target.file && x.exportName === target.machineExport);
    return m ? { file: toPath(m.uri), line: m.line + 1, column: 1 } : undefined;
  }

  /** The first runSeam call in an eval file with this machine's request under the seam (from the server's lenses). */
  private async evalCallFor(target: LensTarget, evalUris: string[]): Promise<{ file: string; line: number } | undefined> {
    if (!target.machineId || !target.request) return undefined;
    // The evals nearest the machine first (its own folder, then the closest relatives).
    const ordered = [...evalUris].sort((a, b) => closeness(toPath(b), target.file) - closeness(toPath(a), target.file) || a.localeCompare(b));
    const found = await Promise.all(ordered.map((uri) => this.catalog.lensTargets(uri)));
    for (const targets of found) {
      const call = targets.find((t) => t.kind === "run-seam" && t.line !== undefined && t.machineId === target.machineId && t.request === target.request);
      if (call && call.line !== undefined) return { file: call.file, line: call.line };
    }
    return undefined;
  }

  /** The machine diagram for a seam / explore run: the machine the lens's call resolves to (by its symbol id). */
  private async graphsFor(target: LensTarget): Promise<AgentGraph[]> {
    if (target.kind === "run-turns" || !target.machineId) return [];
    const machineFile = target.machineId.split("#")[0];
    const graphs = await this.catalog.graphs(vscode.Uri.file(machineFile).toString());
    const chosen = graphs.find((g) => g.kind === "machine" && g.id === target.machineId);
    return chosen ? [chosen] : [];
  }

  /** The flow diagrams of the flows the run's turns went through, from the files the eval itself reaches. */
  private async flowGraphs(events: readonly HarnessEvent[], ranFile: string): Promise<AgentGraph[]> {
    const flowIds = new Set<string>();
    const evalFiles = new Set<string>();
    for (const e of events) {
      if (e.type !== "result" || e.kind !== "turn") continue;
      for (const id of (e.data as TurnReportPayload).flowIds ?? []) flowIds.add(id);
      evalFiles.add(e.callSite?.file ?? ranFile);
    }
    if (!flowIds.size) return [];
    const catalog = await this.catalog.get();
    const flowFiles = new Set(catalog.flows.map((f) => toPath(f.uri)));
    const out = new Map<string, AgentGraph>();
    for (const evalFile of evalFiles) {
      const reachable = reachableFiles(evalFile, readText, existsSync);
      for (const g of await flowGraphsOfRun(flowIds, reachable, (f) => this.catalog.graphs(vscode.Uri.file(f).toString()), (f) => flowFiles.has(f))) out.set(g.id, g);
    }
    return [...out.values()];
  }

  dispose(): void {
    this.cancelAll();
    this.changed.dispose();
  }
}

/** An open document's text (unsaved edits included), else the file on disk. */
function readText(file: string): string | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
  if (open) return open.getText();
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function combineEnds(file: string, ends: Array<Extract<HarnessEvent, { type: "end" }>>, durationMs: number): Extract<HarnessEvent, { type: "end" }> {
  if (ends.length === 1) return ends[0];
  const order = ["crashed", "timeout", "failed", "cancelled", "passed"] as const;
  const status = order.find((s) => ends.some((e) => e.status === s)) ?? "passed";
  const summary = ends.reduce((s, e) => ({ passed: s.passed + e.summary.passed, failed: s.failed + e.summary.failed, skipped: s.skipped + e.summary.skipped }), { passed: 0, failed: 0, skipped: 0 });
  return { type: "end", file, status, durationMs, summary };
}

/** Does this eval file use the flow: names its id in a string, or imports the module that defines it? */
export function mentionsFlow(evalFile: string, flowId: string, flowFile: string): boolean {
  let text: string;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === evalFile);
  try {
    text = open ? open.getText() : readFileSync(evalFile, "utf8");
  } catch {
    return false;
  }
  if (evalFile === flowFile) return true;
  const stem = basename(flowFile, extname(flowFile));
  const quoted = new RegExp(`["'\`]${escapeRegExp(flowId)}["'\`]`);
  const imported = new RegExp(`from\\s+["'][^"']*/${escapeRegExp(stem)}(\\.[cm]?[jt]sx?)?["']`);
  return quoted.test(text) || imported.test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([p.catch(() => fallback), new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);
}
