// The messages between the extension host and the results panel's webview script, and the view model
// the panel renders. Plain data only: this file is imported by both sides (client/src and client/media).
import type { AgentGraph } from "../../../server/src/analysis/api";
import type { FailureInfo, SourceLocation, TestStatus } from "../../../runtime/src/harness/events";
import type { AgentRunReportPayload, SeamReportPayload, TurnReportPayload } from "../../../runtime/src/shared/report";

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
  status: RunStatus;
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
  tests: Array<{ name: string; status: TestStatus; durationMs: number; location?: SourceLocation }>;
  errors: ErrorView[];
  console: Array<{ stream: "stdout" | "stderr"; text: string }>;
  /** Diagrams to draw, each with the node ids the run passed through. */
  diagrams: DiagramView[];
}

export interface ErrorView {
  message: string;
  code?: string;
  test?: string;
  location?: SourceLocation;
  expected?: string;
  actual?: string;
  /** For `seam-script-exhausted`: the scripts key whose queue ran dry (the key to add an entry under). */
  missingKey?: string;
}

export interface DiagramView {
  graph: AgentGraph;
  /** Node ids in the order the run visited them (may repeat). */
  visited: string[];
  /** Node id at which the seam split the path (seam runs only). */
  seamNode?: string;
}

/** Extension → webview. */
export type ToPanel =
  | { type: "show"; view: ResultView }
  | { type: "empty"; message: string };

/** Webview → extension. */
export type FromPanel =
  | { type: "ready" }
  /** Reveal a location: 0-based line/column ranges from the analysis, or 1-based harness locations. */
  | { type: "reveal"; file: string; line: number; column: number; oneBased: boolean }
  | { type: "rerun" };
