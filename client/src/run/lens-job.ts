// One lens run as a queue job: runs the plan's file(s) — or writes the generated program to a temporary
// folder, runs it and removes it — streaming progress to the results panel, then adds the diagrams of
// what ran (asked of the language server: the machine of the call, the flows of the agent the turns used).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payloadOf, type AgentGraph, type EndEvent, type HarnessEvent, type ResultView } from "@agent-lens/protocol";
import type { GeneratedOrigin } from "../panel/generated";
import { buildResultView } from "../panel/view-model";
import type { RunPlan, RunTarget } from "./plan";
import type { WorkspaceQueries } from "./queries";
import type { StartRun } from "./queue";
import type { RunSettings } from "./settings";

/** Where a lens run shows itself (the results panel, in VS Code). */
export interface RunViews {
  start(view: ResultView): void;
  update(view: ResultView): void;
  finish(view: ResultView): void;
}

export interface LensJobHost {
  queries: WorkspaceQueries;
  views: RunViews;
  settingsFor(file: string): RunSettings;
  folderOf(file: string): string;
  log(line: string): void;
}

export type Runnable = Exclude<RunPlan, { kind: "none" }>;

/** The file a plan is about (what the panel names). */
function fileOf(plan: Runnable): string {
  return plan.kind === "files" ? plan.files[0]! : plan.kind === "generated" ? plan.agentFile : plan.file;
}

export function executeLensPlan(host: LensJobHost, plan: Runnable, target: RunTarget, meta: { runId: number; subject: string; origin?: GeneratedOrigin["origin"]; queuedNote?: string }) {
  const file = fileOf(plan);
  const focus = plan.kind === "file" ? plan.focus : undefined;
  const events: HarnessEvent[] = [];
  let graphs: AgentGraph[] = [];
  let note = meta.queuedNote;
  let generated: GeneratedOrigin | undefined;
  const view = (final: boolean) => {
    const v = buildResultView({ runId: meta.runId, title: plan.title, file, focus, subject: meta.subject, generated, events: final ? events : events.filter((e) => e.type !== "end"), graphs });
    return note && !final ? { ...v, note } : v;
  };
  /** Shown as soon as the run is asked for (waiting for a slot, when the queue is full). */
  const announce = () => host.views.start(view(false));
  /** Cancelled while it waited: it never ran, and the panel says so. */
  const withdraw = () => {
    note = undefined;
    events.push({ type: "end", file, status: "cancelled", durationMs: 0, summary: { passed: 0, failed: 0, skipped: 0 } });
    host.views.finish(view(true));
  };

  const run = async (start: StartRun, signal: AbortSignal): Promise<ResultView> => {
    note = undefined;
    const started = Date.now();
    const machine = machineGraphs(host.queries, target, focus);
    let pendingDraw: NodeJS.Timeout | undefined;
    const onEvent = (event: HarnessEvent) => {
      events.push(event);
      if (event.type === "result" && !pendingDraw) pendingDraw = setTimeout(() => { pendingDraw = undefined; host.views.update(view(false)); }, 60);
    };
    const settings = host.settingsFor(file);
    if (plan.kind === "generated") {
      // A generated program lives in a temporary folder: its locations map back to where the lens sits.
      const dir = mkdtempSync(join(tmpdir(), "agent-lens-run-"));
      generated = { entry: join(dir, plan.entryName), origin: meta.origin ?? { file: plan.agentFile, line: 1, column: 1 }, label: plan.label };
      host.views.update(view(false));
      try {
        writeFileSync(generated.entry, plan.source);
        await start({ file: generated.entry, label: plan.label, cwd: host.folderOf(file), signal, onEvent, ...settings });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      host.views.update(view(false));
      const ends: EndEvent[] = [];
      for (const f of plan.kind === "files" ? plan.files : [plan.file]) {
        if (signal.aborted) break;
        const end = await start({ file: f, cwd: host.folderOf(f), signal, onEvent: (e) => (e.type === "end" ? ends.push(e) : onEvent(e)), ...settings });
        if (!ends.includes(end)) ends.push(end);
      }
      events.push(combineEnds(file, ends, Date.now() - started));
    }
    if (pendingDraw) clearTimeout(pendingDraw);
    // The result first; the diagram follows as soon as the server has answered (it is not worth a wait).
    const diagrams = withTimeout(machine.then(async (m) => [...m, ...(await flowGraphsOfRun(host.queries, events, file))]), 15_000, []);
    graphs = await withTimeout(diagrams, 50, []);
    const final = view(true);
    host.views.finish(final);
    if (!graphs.length) {
      void diagrams.then((g) => {
        if (!g.length) return;
        graphs = g;
        host.views.update(view(true));
      });
    }
    host.log(`${plan.title}: ${final.verdict.text} in ${Date.now() - started} ms`);
    return final;
  };
  return { announce, run, withdraw };
}

/** The machine a seam / explore run is about: the call's own (when it has a line), else the lens's machine. */
function machineGraphs(queries: WorkspaceQueries, target: RunTarget, focus: { file: string; line: number } | undefined): Promise<AgentGraph[]> {
  if (target.kind === "run-turns") return Promise.resolve([]);
  if (focus) return queries.siteGraphs(focus.file, focus.line).then((g) => g.filter((x) => x.kind === "machine"));
  if (!target.machineId) return Promise.resolve([]);
  return queries.diagram({ kind: "machine", file: target.file, machineId: target.machineId }).then((g) => (g ? [g] : []));
}

/** The flows the run's turns went through: for each turn's call, the flows of the agent it used (the
 *  analysis resolves the agent), limited to the flow ids the turns reported. */
async function flowGraphsOfRun(queries: WorkspaceQueries, events: readonly HarnessEvent[], ranFile: string): Promise<AgentGraph[]> {
  const names = reportedFlowIds(events);
  const sites = new Map<string, { file: string; line: number }>();
  for (const e of events) if (e.type === "result" && e.kind === "turn" && e.callSite) sites.set(`${e.callSite.file}:${e.callSite.line}`, e.callSite);
  if (!names.size) return [];
  const found = sites.size ? (await Promise.all([...sites.values()].map((s) => queries.siteGraphs(s.file, s.line)))).flat() : await queries.evalGraphs(ranFile);
  const out = new Map<string, AgentGraph>();
  for (const g of found) if (g.kind === "flow" && names.has(g.name) && !out.has(g.id)) out.set(g.id, g);
  return [...out.values()];
}

function combineEnds(file: string, ends: EndEvent[], durationMs: number): EndEvent {
  if (ends.length === 1) return ends[0]!;
  // Cancelled before any file ran: nothing passed.
  if (!ends.length) return { type: "end", file, status: "cancelled", durationMs, summary: { passed: 0, failed: 0, skipped: 0 } };
  const order = ["crashed", "timeout", "failed", "cancelled", "passed"] as const;
  const status = order.find((s) => ends.some((e) => e.status === s)) ?? "passed";
  const summary = ends.reduce((s, e) => ({ passed: s.passed + e.summary.passed, failed: s.failed + e.summary.failed, skipped: s.skipped + e.summary.skipped }), { passed: 0, failed: 0, skipped: 0 });
  return { type: "end", file, status, durationMs, summary };
}

/** The flow ids (as written) the run's turns reported their agent has. */
export function reportedFlowIds(events: readonly HarnessEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) if (e.type === "result" && e.kind === "turn") for (const id of payloadOf(e)?.flowIds ?? []) ids.add(id);
  return ids;
}

export function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([p.catch(() => fallback), new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);
}
