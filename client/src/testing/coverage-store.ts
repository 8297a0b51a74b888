// What the editor's coverage runs found, without VS Code types: the report of a run's files (the CLI's pure
// coverage library over the language server's model), a test's own part of it, and — across coverage runs —
// the states and steps no eval reaches. That last one is said only where it is known: a machine or flow is
// judged only when every eval file whose scope holds it has a coverage run that ended (passed or failed)
// since its files last changed; otherwise nothing is said about it (an eval not run may well reach it).
import type { CoverageModel, CoverageReport, HarnessEvent } from "@agent-lens/protocol";
import { computeCoverage } from "@agent-lens/coverage/compute";
import { matchVisits, type RunResults, type VisitRecord } from "@agent-lens/coverage/match";
import { attributeResults } from "../panel/attribution";
import { keyLine, type LineRange } from "./coverage-view";

type ResultEvent = Extract<HarnessEvent, { type: "result" }>;

/** A file's run as coverage reads it: its `result` events, each with the test it came from when known. */
export function runResultsOf(file: string, events: readonly HarnessEvent[]): RunResults {
  return { file, results: attributeResults(events).filter((e): e is ResultEvent => e.type === "result") };
}

/** The coverage report of `runs` against `model`, paths absolute; `keep` narrows the visits (one test's). */
export function coverageReportOf(model: CoverageModel, runs: RunResults[], keep?: (record: VisitRecord) => boolean): CoverageReport {
  const { records, unmatched } = matchVisits(model, runs);
  return computeCoverage(model, keep ? records.filter(keep) : records, keep ? [] : unmatched, { root: "" });
}

/** A reachable state or step that none of the evals that could reach it did, in its last coverage run. */
export interface Unreached {
  kind: "state" | "step";
  /** Absolute path of the file that defines it. */
  file: string;
  range: LineRange;
  /** The state's dotted path, or the step id. */
  path: string;
  /** The machine's or flow's graph id, name and kind. */
  graph: string;
  agent: string;
  agentKind: "machine" | "flow";
  /** The eval files whose runs were counted (absolute). */
  evalFiles: string[];
}

export class CoverageHistory {
  /** The last finished coverage run of each eval file (by absolute path). */
  private readonly latest = new Map<string, RunResults>();

  /** A coverage run of `file` ended: it counts when the file ran to its end (passed or failed). */
  remember(file: string, events: readonly HarnessEvent[]): void {
    const end = events.find((e) => e.type === "end");
    if (end?.type === "end" && (end.status === "passed" || end.status === "failed")) this.latest.set(file, runResultsOf(file, events));
    else this.latest.delete(file);
  }

  /** `file` changed: its own runs, and those of every eval file whose scope holds a machine or flow of it, no
   *  longer say anything (lines moved, the agent changed). */
  forget(file: string, model: CoverageModel | undefined): void {
    this.latest.delete(file);
    if (!model) return;
    const defined = new Set(model.graphs.filter((g) => g.nodes.some((n) => n.file === file)).map((g) => g.id));
    for (const [evalFile, entry] of Object.entries(model.evalFiles)) if (entry.scope.some((id) => defined.has(id))) this.latest.delete(evalFile);
  }

  has(file: string): boolean {
    return this.latest.has(file);
  }

  /** The unreached states and steps of the machines and flows judged by `model` (the model of every eval file). */
  unreached(model: CoverageModel): Unreached[] {
    const evaluators = new Map<string, string[]>();
    for (const [evalFile, entry] of Object.entries(model.evalFiles)) {
      for (const id of entry.scope) evaluators.set(id, [...(evaluators.get(id) ?? []), evalFile]);
    }
    const judged = new Map(model.graphs.filter((g) => {
      const files = evaluators.get(g.id) ?? [];
      return files.length > 0 && files.every((f) => this.latest.has(f));
    }).map((g) => [g.id, g]));
    if (!judged.size) return [];
    // Visits are tied against the whole model (a run of a machine not judged must not be taken for another).
    const report = coverageReportOf(model, [...this.latest.values()], (r) => judged.has(r.graph));
    const out: Unreached[] = [];
    for (const agent of report.agents) {
      const graph = judged.get(agent.id);
      if (!graph) continue;
      for (const node of agent.nodes) {
        const g = graph.nodes.find((n) => n.id === node.id);
        if (!g || !node.reachable || node.hits > 0) continue;
        out.push({
          kind: agent.kind === "flow" ? "step" : "state", file: g.file, range: keyLine(g), path: node.path,
          graph: agent.id, agent: agent.name, agentKind: agent.kind, evalFiles: [...(evaluators.get(agent.id) ?? [])].sort(),
        });
      }
    }
    return out;
  }
}
