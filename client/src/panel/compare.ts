// "Compare with previous run" / "Compare with last passing run" (issue 27, item 2): two kept runs of the
// same thing side by side — each test's first divergence, found by the CLI's own diff library
// (@agent-lens/diff, what `agent-lens diff` prints) — and, on each diagram, both runs' paths with the node
// where they part. Pure.
import type { AgentGraph, CompareView, DiagramView, DivergenceView, HarnessEvent } from "@agent-lens/protocol";
import { diffRuns } from "@agent-lens/diff/divergence";
import type { HistoryEntry } from "../runs/history";
import { buildResultView, show } from "./view-model";

export interface CompareInput {
  title: string;
  file: string;
  line?: number;
  against: CompareView["against"];
  /** A: the earlier run; B: the run on show. */
  a: HistoryEntry;
  b: HistoryEntry;
  graphs: readonly AgentGraph[];
}

export function buildCompareView(input: CompareInput): CompareView {
  const { a, b } = input;
  // Both runs are of the same file: the diff pairs them under one name (a generated program ran from a
  // temporary folder of its own each time).
  const tag = (events: readonly HarnessEvent[]) => events.map((e) => ({ ...e, file: input.file }));
  const divergences = diffRuns(tag(a.events), tag(b.events)).map((d): DivergenceView => ({
    test: d.test, kind: d.kind, at: d.at, a: show(d.a), b: show(d.b),
    ...(d.state ? { state: d.state } : {}),
    ...(d.callSite ? { callSite: d.callSite } : {}),
  }));
  // The diagram draws the paths of the first test that parted (every result when the file itself did).
  const test = divergences.find((d) => d.test)?.test;
  const only = (events: readonly HarnessEvent[]) => (test ? events.filter((e) => e.type !== "result" || e.test === test) : events);
  const pathsOf = (e: HistoryEntry) => buildResultView({ runId: e.runId, title: input.title, file: input.file, focus: e.focus, subject: e.subject, events: only(e.events), graphs: input.graphs }).diagrams;
  const da = pathsOf(a);
  // (the diagrams neither run went through are left out: an eval file's graphs may hold more than ran)
  const diagrams = pathsOf(b).flatMap((d, i): DiagramView[] => {
    const pa = da[i]?.visited ?? [];
    if (!pa.length && !d.visited.length) return [];
    const split = splitNode(pa, d.visited);
    return [{ graph: d.graph, visited: d.visited, compare: { a: pa, ...(split ? { split } : {}) } }];
  });
  return {
    runId: b.runId, title: input.title, file: input.file, ...(input.line !== undefined ? { line: input.line } : {}), against: input.against,
    a: { at: a.at, status: a.status, verdict: a.verdict },
    b: { at: b.at, status: b.status, verdict: b.verdict },
    divergences, diagrams,
  };
}

/** The last node two paths share before they part; undefined when they are the same or share no start. */
export function splitNode(a: readonly string[], b: readonly string[]): string | undefined {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return undefined;
  return i > 0 ? a[i - 1] : undefined;
}
