// Our requests and notifications on the LSP connection, typed: each RequestType / NotificationType carries
// its params and result, so a handler or a caller that disagrees with the contract fails `npm run
// typecheck` (test/shared/protocol-typecheck.test.ts proves it). The standard LSP features need none of these.
import { NotificationType, RequestType } from "vscode-languageserver-protocol";
import type { AgentGraph, EvalSite, StaticTest } from "./analysis";
import type { CoverageModel } from "./coverage";

/** Node flags the language server runs with (the client's execArgv; the protocol tests and the benches
 *  start it the same way). A young generation of up to 32 MB a half instead of V8's 16: analyzing a
 *  10k-line file allocates about twice its tree while the tree stays alive, and with the smaller one the
 *  scavenges copy that live tree again and again (measured: a 10k-line machine's analysis 1.4–1.8× faster
 *  with it, a 2k-line file unchanged; the price is up to 32 MB more memory while the server is busy). */
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=32"];

/** `initializationOptions` of the `initialize` request. */
export interface InitializationOptions {
  /** The `agentLens` settings section, for clients without `workspace/configuration`. */
  settings?: unknown;
  /** Lens commands the client implements beyond `agentLens.runLens` (today: `agentLens.showDiagram`). */
  clientCommands?: string[];
}

/** `agentLens/graphs` — the machine and flow diagrams a file defines. */
export interface GraphsParams { uri: string }
export type GraphsResult = AgentGraph[];
export const GraphsRequest = new RequestType<GraphsParams, GraphsResult, void>("agentLens/graphs");

/** `agentLens/diagram` — one machine (by its symbol id, wherever it is defined) or one flow of a file. */
export type DiagramParams =
  /** `uri`: a file that defines or uses the machine, read when the id is not indexed yet. */
  | { kind: "machine"; machineId: string; uri?: string }
  /** `line` (0-based, the flow's definition) tells two flows of the file with the same id apart. */
  | { kind: "flow"; uri: string; flowId: string; line?: number };
export const DiagramRequest = new RequestType<DiagramParams, AgentGraph | null, void>("agentLens/diagram");

/** `agentLens/siteGraphs` — the diagrams of what the call on `line` (1-based, as harness call sites and
 *  LensTarget.line are) runs: the machine of a runSeam / explorePaths call, the flows of the agent a turn
 *  call uses. */
export interface SiteGraphsParams { uri: string; line: number }
export const SiteGraphsRequest = new RequestType<SiteGraphsParams, AgentGraph[], void>("agentLens/siteGraphs");

/** `agentLens/evalGraphs` — the diagrams of everything an eval file's calls run (for Testing view runs). */
export interface EvalGraphsParams { uri: string }
export const EvalGraphsRequest = new RequestType<EvalGraphsParams, AgentGraph[], void>("agentLens/evalGraphs");

/** `agentLens/coverageModel` — what agent coverage of these eval files is computed against (the machines and
 *  flows in their scope, their calls and tests, what the analysis proved unreachable): the editor's coverage
 *  runs tie the runs' visits to it. Keys of `evalFiles` are paths, as the harness reports files. */
export interface CoverageModelParams { uris: string[] }
export const CoverageModelRequest = new RequestType<CoverageModelParams, CoverageModel, void>("agentLens/coverageModel");

/** A flow as the catalog names it. `line` is 0-based: the line of its id. */
export interface CatalogFlow { uri: string; id: string; name: string; line: number }

/** `agentLens/catalog` — what the workspace holds, for quick picks, runs and the Testing view. */
export interface CatalogResult {
  /** `line` is 0-based (LSP style): the line of the machine's / flow's name. */
  /** `requests`: the names its invokes and scripts can use; `seams`: those a seam run can put under the
   *  seam (what its "Run seam" lenses offer: text requests it invokes, named, of an exported machine). */
  machines: Array<{ uri: string; id: string; name: string; exportName?: string; requests: string[]; seams: string[]; line: number }>;
  flows: CatalogFlow[];
  /** Files matching the test globs, with the tests found statically (ranges 0-based), the calls that run
   *  something, and the flows those calls (or, failing that, the files they import) use. */
  evalFiles: Array<{ uri: string; tests: StaticTest[]; sites: EvalSite[]; flows: CatalogFlow[] }>;
}
export const CatalogRequest = new RequestType<Record<string, never>, CatalogResult, void>("agentLens/catalog");

/** `agentLens/status` (server → client) — server state and how many definitions are indexed. */
export interface StatusParams {
  state: "starting" | "indexing" | "ready" | "error";
  /** Machines + flows + agents indexed across the workspace. */
  definitions: number;
  files: number;
  message?: string;
}
export const StatusNotification = new NotificationType<StatusParams>("agentLens/status");
