// What clicking a lens (or picking a target in the palette) does: plan the run from the target and what
// the workspace holds (asked of the language server), then enqueue it on the one run queue. A second click
// on a lens whose run is queued or running cancels it. Pure: VS Code comes in through the host.
import type { CatalogResult, LensTarget, ResultView, SourceLocation } from "@agent-lens/protocol";
import { executeLensPlan, type LensJobHost } from "./lens-job";
import { closeness, planRun, subjectOf, targetKey, type RunTarget } from "./plan";
import { EMPTY_CATALOG } from "./queries";
import type { RunQueue } from "./queue";
import { toPath } from "./uris";

export interface LensRunHost extends LensJobHost {
  queue: RunQueue;
  /** True when running is allowed; otherwise explains why (untrusted workspace). */
  ensureTrusted(): boolean;
  /** Nothing to run: say why. */
  showMessage(message: string): void;
  /** "Run turns" on a flow no eval file runs yet: the flow's own page, saying so, with a way to start one. */
  showFlowWithoutEval?(target: RunTarget & { flowId: string }, reason: string): void;
  newRunId(): number;
}

export type LensRunState = "queued" | "running";

/** The queue key of a lens's run. */
export const lensKey = (target: LensTarget) => `lens|${targetKey(target)}`;

export class LensRuns {
  /** What each run of this session ran, for the panel's "Run again". */
  private readonly targets = new Map<number, RunTarget>();
  /** The verdict line of each lens's last finished run (its title says it). */
  private readonly verdicts = new Map<string, string>();

  constructor(private readonly host: LensRunHost) {}

  stateOf(target: LensTarget): LensRunState | undefined {
    // A lens that asks which machine: running while the run of any of them is.
    if (target.choices?.length) {
      const states = target.choices.map(({ name: _n, line: _l, ...machine }) => this.stateOf({ ...target, ...machine, choices: undefined }));
      return states.find((s) => s === "running") ?? states.find((s) => s === "queued");
    }
    const job = this.host.queue.find(lensKey(target));
    return job && job.state !== "done" ? job.state : undefined;
  }

  lastVerdictOf(target: LensTarget): string | undefined {
    // A lens that asks which machine has no one last run to speak of.
    return target.choices?.length ? undefined : this.verdicts.get(lensKey(target));
  }

  /** Runs a lens's target; resolves with the run's final view (undefined: not run, or cancelled while queued). */
  async run(target: RunTarget | undefined): Promise<ResultView | undefined> {
    const { host } = this;
    if (!target || typeof target !== "object" || typeof target.file !== "string") {
      host.showMessage("Agent Lens: this lens has no run target.");
      return undefined;
    }
    const going = host.queue.find(lensKey(target));
    if (going) {
      going.cancel();
      return undefined;
    }
    if (!host.ensureTrusted()) {
      host.log(`refused to run ${target.kind} in ${target.file}: the workspace is not trusted`);
      return undefined;
    }
    // A lens on the user's own call (it has a line) runs its file: no need to wait for the catalog.
    const catalog = target.line !== undefined ? EMPTY_CATALOG : await host.queries.catalog();
    const plan = planRun(target, planContext(catalog));
    host.log(`run ${plan.kind}: ${plan.title}`);
    if (plan.kind === "none") {
      if (target.kind === "run-turns" && target.flowId && host.showFlowWithoutEval) host.showFlowWithoutEval({ ...target, flowId: target.flowId }, plan.reason);
      else host.showMessage(plan.reason);
      return undefined;
    }
    const runId = host.newRunId();
    this.targets.set(runId, target);
    const origin = plan.kind === "generated" ? target.anchor ?? definitionOf(catalog, target) : undefined;
    const full = host.queue.snapshot().running.length >= host.queue.limit;
    const queuedNote = full ? `Waiting for a free run slot (agentLens.run.jobs = ${host.queue.limit}); click the lens again to cancel.` : undefined;
    const job = executeLensPlan(host, plan, target, { runId, subject: subjectOf(target), origin, queuedNote });
    job.announce();
    const view = await host.queue.enqueue({ key: lensKey(target), label: plan.title, run: job.run }).result;
    if (!view) job.withdraw();
    // A cancelled run says nothing about the code: the lens keeps the verdict it had.
    else if (view.status !== "cancelled") this.verdicts.set(lensKey(target), view.verdict.text);
    return view;
  }

  /** Runs again what produced the run `runId`, if a lens or command of this session ran it. */
  rerun(runId: number): Promise<ResultView | undefined> | undefined {
    const target = this.targets.get(runId);
    return target ? this.run(target) : undefined;
  }
}

function planContext(catalog: CatalogResult) {
  const evalFiles = new Set(catalog.evalFiles.map((f) => toPath(f.uri)));
  return {
    isEvalFile: (file: string) => evalFiles.has(file),
    // The eval files whose turn calls run the flow (the analysis followed their agents to its definition).
    evalFilesUsingFlow: (flowId: string, flowFile: string) =>
      catalog.evalFiles.filter((e) => e.flows.some((f) => f.name === flowId && toPath(f.uri) === flowFile)).map((e) => toPath(e.uri)),
    evalCallFor: (target: LensTarget) => evalCallFor(catalog, target),
  };
}

/** The runSeam call of an eval file that puts this machine's request under the seam, nearest the machine first. */
function evalCallFor(catalog: CatalogResult, target: LensTarget): { file: string; line: number } | undefined {
  if (!target.machineId || !target.request) return undefined;
  const calls = catalog.evalFiles.flatMap((e) => e.sites.filter((s) => s.kind === "run-seam" && s.machineId === target.machineId && s.request === target.request).map((s) => ({ file: toPath(e.uri), line: s.line })));
  calls.sort((a, b) => closeness(b.file, target.file) - closeness(a.file, target.file) || a.file.localeCompare(b.file) || a.line - b.line);
  return calls[0];
}

/** Where a machine is defined (a palette run has no lens to point back to). */
function definitionOf(catalog: CatalogResult, target: LensTarget): SourceLocation | undefined {
  const m = catalog.machines.find((x) => x.id === target.machineId) ?? catalog.machines.find((x) => toPath(x.uri) === target.file && x.exportName === target.machineExport);
  return m ? { file: toPath(m.uri), line: m.line + 1, column: 1 } : undefined;
}
