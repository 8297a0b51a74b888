// The messages between the extension host and the results panel's webview script (a separate process),
// and the view model the panel renders. Plain data only: imported by both sides (client/src and client/media).
import type { AgentGraph } from "./analysis";
import type { DriftReason, ModelCallInfo, SourceLocation, TestStatus } from "./harness";
import type { AgentRunReportPayload, SeamReportPayload, TurnReportPayload } from "./reports";

export type RunStatus = "running" | "passed" | "failed" | "timeout" | "cancelled" | "crashed";

/** What one run produced, ready to draw. Every string in here may come from user code or a model. */
export interface ResultView {
  /** Increases with every run, so the webview can drop stale updates. */
  runId: number;
  /** "Run seam · scoreDraft", "Run turns · triagem", "Explore paths · machine", "Tests · file.test.ts". */
  title: string;
  /** The file that ran (absolute) and the line the run is about (1-based), when there is one. */
  file: string;
  line?: number;
  /** The headline (= verdict.status): the subject's own verdict when the run is about one call (or a
   *  generated program), else the file's status. */
  status: RunStatus;
  /** The file's status (the harness's end event); differs from `status` when another part of the file failed. */
  fileStatus: RunStatus;
  /** How the run went, once: the panel's header and Tests section, the lens title, the Testing view and
   *  the status bar all say this and nothing else. */
  verdict: RunVerdict;
  /** A generated program ran (a keyless seam run, explore paths): there is no user file to speak of. */
  generated?: boolean;
  durationMs?: number;
  /** Which library copies the harness used ("bundled" / "workspace"). */
  runtime?: Record<string, string>;
  /** Shown above everything else, e.g. "no result came from line 12; showing all results of the file". */
  note?: string;
  seams: Array<SeamReportPayload & { callSite?: SourceLocation; test?: string }>;
  turns: Array<TurnReportPayload & { callSite?: SourceLocation; test?: string }>;
  agentRuns: Array<AgentRunReportPayload & { kind: "agent" | "simulate"; callSite?: SourceLocation; test?: string }>;
  /** explorePaths / canReach / matchesTrajectory / executeAgentRequest results, drawn as labelled JSON. */
  other: Array<{ kind: string; data: unknown; callSite?: SourceLocation; test?: string }>;
  /** `erroredResults`: the test's results that ended in error (the test itself may still have passed). */
  tests: Array<{ name: string; status: TestStatus; durationMs: number; location?: SourceLocation; erroredResults?: number }>;
  errors: ErrorView[];
  console: Array<{ stream: "stdout" | "stderr"; text: string }>;
  /** Diagrams to draw, each with the node ids the run passed through. */
  diagrams: DiagramView[];
  /** The model calls the run's tests made (`model-call` events), in order; absent when there were none. */
  modelCalls?: ModelCallView[];
  /** What the live calls cost, estimated (set by the extension from the price table and
   *  `agentLens.run.modelPrices` when it shows the view). */
  cost?: RunCost;
  /** Earlier runs of the same thing the extension keeps (see RunHistory): what "Compare with …" can use. */
  history?: { previous?: HistoryMark; passing?: HistoryMark };
}

/** One model call as the panel lists it (ModelCallInfo's summary fields): never its input or output. */
export type ModelCallView = Pick<ModelCallInfo, "index" | "key" | "occurrence" | "model" | "source" | "recordedAt" | "usage" | "callSite"> & {
  test: string;
  /** The call failed: the first line of what it threw. */
  error?: string;
  /** Estimated USD of a live call whose model has a known price (set with RunCost). */
  costUsd?: number;
};

/** The estimated cost of a run's live model calls. */
export interface RunCost {
  usd: number;
  /** Live calls with usage whose model has no known price. */
  unpriced: string[];
  /** When the table's prices were list prices ("2026-04"). */
  asOf: string;
}

/** An earlier run the panel can compare the one on show with. */
export interface HistoryMark {
  /** ms since the epoch. */
  at: number;
  status: RunStatus;
}

/** "Compare with previous run" / "Compare with last passing run": two runs of the same thing side by side,
 *  each test's first divergence (from the CLI's diff library) and both paths on the diagram. */
export interface CompareView {
  runId: number;
  title: string;
  file: string;
  line?: number;
  against: "previous" | "passing";
  /** A: the earlier run; B: the run that was on show. */
  a: { at: number; status: RunStatus; verdict: string };
  b: { at: number; status: RunStatus; verdict: string };
  divergences: DivergenceView[];
  /** Each diagram with both runs' paths (`visited`: B's, `compare.a`: A's) and the node where they split. */
  diagrams: DiagramView[];
}

export interface DivergenceView {
  /** "" for a difference of the file itself. */
  test: string;
  /** call, event, state, outcome, message, result, status, failure, test, file. */
  kind: string;
  /** What differs: `call scoreDraft (event 2)`, `state 3`, `outcome 1`. */
  at: string;
  /** The last state both runs were in before the difference. */
  state?: string;
  callSite?: SourceLocation;
  /** Each side as text (JSON when not a string). */
  a: string;
  b: string;
}


/** A run's one verdict (see ResultView.verdict). */
export interface RunVerdict {
  /** The headline status: the subject's when the run is about one call or a generated program, else the file's. */
  status: RunStatus;
  /** What the run is about and its own verdict ("seam ✓ · file ✗"). */
  subject?: { label: string; status: RunStatus };
  /** The file's status; absent for a generated program (there is no user file to speak of). */
  file?: RunStatus;
  /** Results of the file that ended in error by their own account (status "error"), whatever the file did. */
  erroredResults: number;
  /** The verdict as one line: "seam ✗", "seam ✓ · file ✗", "passed · 1 result ended in error". */
  text: string;
}

export interface ErrorView {
  message: string;
  /** The runtime's message as XState wrote it (ids, not the user's names), shown on hover. */
  raw?: string;
  code?: string;
  test?: string;
  location?: SourceLocation;
  expected?: string;
  actual?: string;
  /** For `seam-script-exhausted`: the scripts key whose queue ran dry (the key to add an entry under). */
  missingKey?: string;
  /** A replay that drifted (`drift` event): `message` is then its one line, this the rest. */
  drift?: { reason: DriftReason; diff?: string[]; changed?: string[]; rerecord?: string };
}

export interface DiagramView {
  graph: AgentGraph;
  /** Node ids in the order the run visited them (may repeat). */
  visited: string[];
  /** Node id at which the seam split the path (seam runs only). */
  seamNode?: string;
  /** A compare view's diagram: the earlier run's path (node ids in order) and the last node both paths
   *  share before they part (absent when they never part). `visited` is then the later run's path. */
  compare?: { a: string[]; split?: string };
}

/** A machine or flow diagram on its own ("Show diagram": nothing ran). */
export interface DiagramPanelView {
  /** Same counter as ResultView.runId. */
  runId: number;
  title: string;
  file: string;
  /** 1-based line of the machine / flow. */
  line?: number;
  diagrams: DiagramView[];
  /** Why this page stands where a run's result would (a flow no eval runs yet). */
  note?: string;
  /** Offer to start an eval file for this flow (file: the flow's file). */
  newEval?: { flowId: string; file: string };
}

/** One entry of the panel's "recent" list (runs kept while another is on show). */
export interface RecentEntry {
  runId: number;
  title: string;
  status: RunStatus | "diagram";
  /** The run's verdict line (RunVerdict.text); absent for a diagram. */
  verdict?: string;
  /** When it was last updated (ms since the epoch): runs of the same lens read apart by it. */
  at?: number;
}

/** Extension → webview. `recent` lists what else the panel can show (newest first). */
export type ToPanel =
  | { type: "show"; view: ResultView; recent?: RecentEntry[] }
  | { type: "diagram"; view: DiagramPanelView; recent?: RecentEntry[] }
  | { type: "compare"; view: CompareView; recent?: RecentEntry[] }
  | { type: "empty"; message: string };

/** Webview → extension. */
export type FromPanel =
  | { type: "ready" }
  /** Reveal a location: 0-based line/column ranges from the analysis, or 1-based harness locations. */
  | { type: "reveal"; file: string; line: number; column: number; oneBased: boolean }
  | { type: "rerun" }
  /** Show another entry of the recent list. */
  | { type: "select"; runId: number }
  /** Start an eval file for a flow (DiagramPanelView.newEval). */
  | { type: "newEval"; flowId: string; file: string }
  /** Compare the run on show with an earlier run of the same thing. */
  | { type: "compare"; against: "previous" | "passing" };
