// Ties each runtime report's `visited` record to one machine or flow of the coverage model, and to the test
// it came from. Pure. A machine is found by, in order: the call the analysis tied to it (a runSeam at the
// report's call site), the machine whose state paths are exactly the ones the runtime reported, the one
// machine in scope holding every state the run entered. A flow: by its id among the flows in scope of the
// eval file, narrowed to the agent of the turn call when the analysis knows it, then to the one holding
// every step the turn entered. Anything else is reported unmatched, never guessed.
import { payloadOf } from "@agent-lens/protocol/harness"; // not the index: it loads the LSP protocol
import type { AgentGraph, CoverageEvalFile, CoverageModel, FlowVisitedReport, MachineVisitedReport, ResultEvent, UnmatchedVisit } from "@agent-lens/protocol";

/** One report tied to its machine or flow; `file` is the eval file that ran, `test` the test it came from. */
export type VisitRecord =
  | { kind: "machine"; graph: string; file: string; test?: string; visited: MachineVisitedReport }
  | { kind: "flow"; graph: string; file: string; test?: string; visited: FlowVisitedReport };

/** The results of one eval file's run (its stream's `result` events) and, for node:test files, nothing more. */
export interface RunResults {
  /** The eval file (absolute, as the model's `evalFiles` keys). */
  file: string;
  results: ResultEvent[];
}

function samePath(a: string, b: string): boolean {
  return a === b || a.replace(/\\/g, "/") === b.replace(/\\/g, "/");
}

/** The test a result came from: its own name, else the test block of the eval file around its call site. */
function testOf(event: ResultEvent, file: string, evalFile: CoverageEvalFile | undefined): string | undefined {
  if (event.test !== undefined) return event.test;
  const tests = evalFile?.tests ?? [];
  const at = event.callSite && samePath(event.callSite.file, file) ? event.callSite.line : undefined;
  if (at !== undefined) {
    const around = tests.filter((t) => t.startLine <= at && at <= t.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine));
    if (around[0]) return around[0].name;
  }
  return tests.length === 1 ? tests[0]!.name : undefined;
}

function siteAt(event: ResultEvent, file: string, evalFile: CoverageEvalFile | undefined) {
  if (!event.callSite || !samePath(event.callSite.file, file)) return undefined;
  return evalFile?.sites.find((s) => s.line === event.callSite!.line);
}

function pathsOf(graph: AgentGraph): Set<string> {
  return new Set(graph.nodes.filter((n) => n.type !== "final" || graph.kind === "machine").map((n) => n.path));
}

function matchMachine(visited: MachineVisitedReport, inScope: AgentGraph[], siteMachine: string | undefined): AgentGraph | string {
  const machines = inScope.filter((g) => g.kind === "machine");
  const bySite = siteMachine ? machines.find((g) => g.id === siteMachine) : undefined;
  if (bySite) return bySite;
  const shape = new Set(visited.machine.states);
  const exact = machines.filter((g) => {
    const paths = pathsOf(g);
    return paths.size === shape.size && [...shape].every((p) => paths.has(p));
  });
  if (exact.length === 1) return exact[0]!;
  const holding = (exact.length ? exact : machines).filter((g) => {
    const paths = pathsOf(g);
    return visited.states.every((p) => paths.has(p));
  });
  if (holding.length === 1) return holding[0]!;
  return holding.length ? `${holding.length} machines in scope fit its states` : "no machine in scope of the eval file has its states";
}

function matchFlow(flowId: string, visited: FlowVisitedReport, inScope: AgentGraph[], siteFlows: string[] | undefined): AgentGraph | string {
  let flows = inScope.filter((g) => g.kind === "flow" && g.name === flowId);
  if (siteFlows) {
    const ofAgent = flows.filter((g) => siteFlows.includes(g.id));
    if (ofAgent.length) flows = ofAgent;
  }
  if (flows.length > 1) {
    const steps = visited.steps.filter((s) => s.flow === flowId).map((s) => s.step);
    flows = flows.filter((g) => {
      const paths = pathsOf(g);
      return steps.every((s) => paths.has(s));
    });
  }
  if (flows.length === 1) return flows[0]!;
  return flows.length ? `${flows.length} flows in scope have this id and its steps` : "no flow in scope of the eval file has this id";
}

/** The part of a turn's record about one flow (fields stay whole: the flow's own list decides). */
function ofFlow(visited: FlowVisitedReport, flowId: string): FlowVisitedReport {
  return {
    flows: visited.flows.filter((f) => f === flowId),
    steps: visited.steps.filter((s) => s.flow === flowId),
    exits: visited.exits.filter((e) => e.flow === flowId),
    fields: visited.fields,
  };
}

/** What a report visited (only a stately run's or a turn's, and only under the harness). */
function visitedOf(event: ResultEvent): { kind: "machine"; report: MachineVisitedReport } | { kind: "flow"; report: FlowVisitedReport } | undefined {
  if (event.kind === "seam" || event.kind === "agent" || event.kind === "simulate") {
    const report = payloadOf(event)?.visited;
    return report ? { kind: "machine", report } : undefined;
  }
  if (event.kind === "turn") {
    const report = payloadOf(event)?.visited;
    return report ? { kind: "flow", report } : undefined;
  }
  return undefined;
}

export function matchVisits(model: CoverageModel, runs: RunResults[]): { records: VisitRecord[]; unmatched: UnmatchedVisit[] } {
  const byId = new Map(model.graphs.map((g) => [g.id, g]));
  const records: VisitRecord[] = [];
  const unmatched: UnmatchedVisit[] = [];
  for (const run of runs) {
    const evalFile = model.evalFiles[run.file];
    const inScope = (evalFile?.scope ?? []).flatMap((id) => byId.get(id) ?? []);
    for (const event of run.results) {
      const visited = visitedOf(event);
      if (!visited) continue;
      const test = testOf(event, run.file, evalFile);
      const where = { file: event.callSite?.file ?? run.file, ...(event.callSite ? { line: event.callSite.line } : {}) };
      if (visited.kind === "machine") {
        const found = matchMachine(visited.report, inScope, siteAt(event, run.file, evalFile)?.machineId);
        if (typeof found === "string") unmatched.push({ ...where, kind: "machine", name: visited.report.machine.id, reason: found });
        else records.push({ kind: "machine", graph: found.id, file: run.file, ...(test !== undefined ? { test } : {}), visited: visited.report });
      } else {
        const turn = visited.report;
        const flowIds = new Set([...turn.flows, ...turn.steps.map((s) => s.flow), ...turn.exits.map((e) => e.flow)]);
        for (const flowId of flowIds) {
          const found = matchFlow(flowId, turn, inScope, siteAt(event, run.file, evalFile)?.flows);
          if (typeof found === "string") unmatched.push({ ...where, kind: "flow", name: flowId, reason: found });
          else records.push({ kind: "flow", graph: found.id, file: run.file, ...(test !== undefined ? { test } : {}), visited: ofFlow(turn, flowId) });
        }
      }
    }
  }
  return { records, unmatched };
}
