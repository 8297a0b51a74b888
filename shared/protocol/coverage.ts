// Agent coverage (issue 27): which states, transitions, steps and branches of the analysis' machines and
// flows a run's evals reached. Computed by shared/coverage (a pure library: the analysis' graphs plus the
// `visited` records of the runtime's reports), written by `agent-lens run --coverage` as
// coverage/agents/coverage.json, and drawn by the editor's Testing view (client/src/testing/coverageView.ts).
// Plain data. The coverage model (what coverage is computed against: the analysis' graphs of the eval files'
// scope) travels from the language server to the editor (agentLens/coverageModel), so it is declared here too.
import type { AgentGraph } from "./analysis";

/** Items reached out of items counted. */
export interface CoverageRatio {
  covered: number;
  total: number;
}

/** The four kinds `--coverage-min` judges, plus requests (machines) and fields (flows). Absent kinds: none. */
export interface CoverageCounts {
  states: CoverageRatio;
  transitions: CoverageRatio;
  steps: CoverageRatio;
  branches: CoverageRatio;
  requests: CoverageRatio;
  fields: CoverageRatio;
}

/** A test that reached an item: its file (as the report writes paths) and its name ("suite > test"). */
export interface CoverageTest {
  file: string;
  name: string;
}

/** A state (machine) or a step (flow). `line` is 1-based. `reachable: false`: the analysis proved no run
 *  can enter it (`unreachable-state` / `unreachable-step`): not counted. */
export interface CoverageNode {
  id: string;
  /** The dotted state path, or the step id. */
  path: string;
  file: string;
  line: number;
  hits: number;
  /** Indexes into the report's `tests`. */
  tests: number[];
  reachable: boolean;
}

/** A transition (machine: by source, event and target) or a way out of a step (flow: then / else / onFail
 *  / branch:i). `source` / `target` are node ids ("" source: the machine's root). */
export interface CoverageEdge {
  source: string;
  target: string;
  /** The transition's event ("SUBMIT", "always", "done", "after 1000") or the jump's label. */
  label: string;
  /** Flows: "then", "else", "onFail" or "branch:<index>". */
  exit?: string;
  file: string;
  line: number;
  hits: number;
  tests: number[];
  reachable: boolean;
}

/** A request a machine may invoke, or a field a flow collects. */
export interface CoverageName {
  name: string;
  hits: number;
  tests: number[];
}

export interface AgentCoverage {
  kind: "machine" | "flow";
  /** The analysis' symbol id of the machine / flow (AgentGraph.id). */
  id: string;
  name: string;
  file: string;
  line: number;
  /** Reports tied to it (runs of it). */
  runs: number;
  counts: CoverageCounts;
  nodes: CoverageNode[];
  edges: CoverageEdge[];
  requests: CoverageName[];
  fields: CoverageName[];
}

/** A report that could not be tied to exactly one machine or flow of the analysis (none, or several fit). */
export interface UnmatchedVisit {
  file: string;
  line?: number;
  kind: "machine" | "flow";
  /** The machine's id, or the flow id. */
  name: string;
  reason: string;
}

export interface CoverageReport {
  version: 1;
  /** Paths in this report are relative to it (the folder `agent-lens run` ran in), "/"-separated. */
  root: string;
  totals: CoverageCounts;
  /** Percent of states + transitions + steps + branches reached (what `--coverage-min` compares); 100 when
   *  there is nothing to count. */
  percent: number;
  agents: AgentCoverage[];
  tests: CoverageTest[];
  unmatched: UnmatchedVisit[];
}

/** A call of an eval file the analysis tied to what it runs (a runSeam lens: its machine; a turn: its flows). */
export interface CoverageSite {
  /** 1-based, as harness call sites. */
  line: number;
  machineId?: string;
  flows?: string[];
}

/** A test block of an eval file, for tying a result without a test name to the test it came from. */
export interface CoverageTestBlock {
  /** "suite > test", as the harness names node:test tests. */
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface CoverageEvalFile {
  /** Graph ids (machines and flows) defined in the eval file or a file it imports, directly or not. */
  scope: string[];
  sites: CoverageSite[];
  tests: CoverageTestBlock[];
}

export interface CoverageModel {
  /** Every machine and flow in scope of some eval file, once. */
  graphs: AgentGraph[];
  /** Node ids the analysis proved unreachable (`unreachable-state`, `unreachable-step`): not counted. */
  unreachable: string[];
  /** Request names each machine may invoke (by graph id). */
  requests: Record<string, string[]>;
  /** Fields each flow's steps collect (by graph id). */
  fields: Record<string, string[]>;
  /** By absolute path of the eval file. */
  evalFiles: Record<string, CoverageEvalFile>;
}
