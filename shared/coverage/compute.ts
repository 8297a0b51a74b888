// Agent coverage (shared/protocol/coverage.ts) from the coverage model and the visit records tied to it
// (match.ts). Pure. Machines: states are the declarations, transitions (source, event, target) the
// branches, plus the requests they may invoke. Flows: steps are the declarations (the "end" node is not a
// step), each way out of a step (then / else / onFail / branch) a branch, plus the fields they collect.
// What the analysis proved unreachable is listed but not counted, and neither is a transition out of it.
import type { AgentCoverage, AgentGraph, CoverageCounts, CoverageEdge, CoverageModel, CoverageName, CoverageNode, CoverageReport, CoverageTest, UnmatchedVisit } from "@agent-lens/protocol";
import type { VisitRecord } from "./match";

export interface CoverageOptions {
  /** The folder paths are written relative to. */
  root: string;
  /** How a path is written in the report (default: as given). */
  show?: (file: string) => string;
}

const ratio = () => ({ covered: 0, total: 0 });
const emptyCounts = (): CoverageCounts => ({ states: ratio(), transitions: ratio(), steps: ratio(), branches: ratio(), requests: ratio(), fields: ratio() });

function addCounts(into: CoverageCounts, from: CoverageCounts): void {
  for (const key of Object.keys(into) as Array<keyof CoverageCounts>) {
    into[key].covered += from[key].covered;
    into[key].total += from[key].total;
  }
}

/** Percent of states + transitions + steps + branches reached (100 when there are none). */
export function percentOf(c: CoverageCounts): number {
  const parts = [c.states, c.transitions, c.steps, c.branches];
  const total = parts.reduce((n, r) => n + r.total, 0);
  const covered = parts.reduce((n, r) => n + r.covered, 0);
  return total === 0 ? 100 : Math.round((covered / total) * 10000) / 100;
}

/** Interns tests, so items refer to them by index. */
class Tests {
  readonly list: CoverageTest[] = [];
  private readonly index = new Map<string, number>();
  constructor(private readonly show: (file: string) => string) {}
  of(record: VisitRecord): number | undefined {
    if (record.test === undefined) return undefined;
    const file = this.show(record.file);
    const key = `${file}\n${record.test}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.list.push({ file, name: record.test }) - 1;
      this.index.set(key, i);
    }
    return i;
  }
}

/** Adds one hit (and its test) to an item. */
function hit(item: { hits: number; tests: number[] }, test: number | undefined): void {
  item.hits++;
  if (test !== undefined && !item.tests.includes(test)) item.tests.push(test);
}

function machineEdgeHit(edge: CoverageEdge, sourcePath: string, targetPath: string, record: VisitRecord): boolean {
  if (record.kind !== "machine") return false;
  return record.visited.transitions.some((t) => t.source === sourcePath && t.event === edge.label && t.targets.includes(targetPath));
}

function flowEdgeHit(edge: CoverageEdge, stepId: string, record: VisitRecord): boolean {
  if (record.kind !== "flow") return false;
  return record.visited.exits.some((e) => e.step === stepId && (e.exit === "branch" ? `branch:${e.branch}` : e.exit) === edge.exit);
}

function agentCoverage(graph: AgentGraph, model: CoverageModel, records: VisitRecord[], tests: Tests, show: (f: string) => string, unreachable: Set<string>): AgentCoverage {
  const isFlow = graph.kind === "flow";
  const nodes = graph.nodes.filter((n) => !(isFlow && n.type === "final"));
  const pathOf = new Map(graph.nodes.map((n) => [n.id, n.path]));
  const coverageNodes: CoverageNode[] = nodes.map((n) => ({ id: n.id, path: n.path, file: show(n.file), line: n.range.startLine + 1, hits: 0, tests: [], reachable: !unreachable.has(n.id) }));
  const edges: CoverageEdge[] = graph.edges.map((e) => {
    const from = graph.nodes.find((n) => n.id === e.source);
    const at = e.range ?? from?.range ?? graph.range;
    return {
      source: pathOf.has(e.source) ? e.source : "",
      target: e.target,
      label: e.label,
      ...(e.exit ? { exit: e.exit } : {}),
      file: show(e.file ?? from?.file ?? nodes[0]?.file ?? ""),
      line: at ? at.startLine + 1 : 0,
      hits: 0,
      tests: [],
      reachable: !unreachable.has(e.source),
    };
  });
  const requests: CoverageName[] = (model.requests[graph.id] ?? []).map((name) => ({ name, hits: 0, tests: [] }));
  const fields: CoverageName[] = (model.fields[graph.id] ?? []).map((name) => ({ name, hits: 0, tests: [] }));
  let runs = 0;
  for (const record of records) {
    if (record.graph !== graph.id) continue;
    runs++;
    const test = tests.of(record);
    const entered = new Set(record.kind === "machine" ? record.visited.states : record.visited.steps.map((s) => s.step));
    for (const n of coverageNodes) if (entered.has(n.path)) hit(n, test);
    for (const e of edges) {
      const source = e.source ? pathOf.get(e.source)! : "";
      const taken = isFlow ? flowEdgeHit(e, source, record) : machineEdgeHit(e, source, pathOf.get(e.target) ?? "", record);
      if (taken) hit(e, test);
    }
    const names = record.kind === "machine" ? record.visited.requests : record.visited.fields;
    for (const item of isFlow ? fields : requests) if (names.includes(item.name)) hit(item, test);
  }
  const counts = emptyCounts();
  const count = (into: { covered: number; total: number }, items: Array<{ hits: number; reachable?: boolean }>) => {
    for (const item of items) {
      if (item.reachable === false) continue;
      into.total++;
      if (item.hits > 0) into.covered++;
    }
  };
  count(isFlow ? counts.steps : counts.states, coverageNodes);
  count(isFlow ? counts.branches : counts.transitions, edges);
  count(isFlow ? counts.fields : counts.requests, isFlow ? fields : requests);
  const anchor = graph.range ?? nodes[0]?.range;
  return {
    kind: graph.kind, id: graph.id, name: graph.name, file: show(nodes[0]?.file ?? graph.nodes[0]?.file ?? ""), line: (anchor?.startLine ?? 0) + 1,
    runs, counts, nodes: coverageNodes, edges, requests, fields,
  };
}

export function computeCoverage(model: CoverageModel, records: VisitRecord[], unmatched: UnmatchedVisit[], options: CoverageOptions): CoverageReport {
  const show = options.show ?? ((f: string) => f);
  const tests = new Tests(show);
  const unreachable = new Set(model.unreachable);
  const agents = [...model.graphs]
    .map((g) => agentCoverage(g, model, records, tests, show, unreachable))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.name.localeCompare(b.name));
  const totals = emptyCounts();
  for (const a of agents) addCounts(totals, a.counts);
  return {
    version: 1,
    root: options.root,
    totals,
    percent: percentOf(totals),
    agents,
    tests: tests.list,
    unmatched: unmatched.map((u) => ({ ...u, file: show(u.file) })),
  };
}
