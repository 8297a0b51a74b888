// Custom requests and notifications between our language server and our VS Code client (the standard
// LSP features need none of these). Plain data types only, importable from both sides.
import type { AgentGraph, LensTarget, StaticTest } from "../analysis/api";

/** Request `agentLens/graphs` — the machine and flow diagrams of one file. */
export const GraphsRequest = "agentLens/graphs";
export interface GraphsParams { uri: string }
export type GraphsResult = AgentGraph[];

/** Request `agentLens/catalog` — what the workspace holds, for quick picks and the Test Explorer. */
export const CatalogRequest = "agentLens/catalog";
export interface CatalogResult {
  /** `line` is 0-based (LSP style): the line of the machine's / flow's name. */
  machines: Array<{ uri: string; id: string; name: string; exportName?: string; requests: string[]; line: number }>;
  flows: Array<{ uri: string; id: string; name: string; line: number }>;
  /** Files matching the test globs, with the tests found statically (ranges 0-based). */
  evalFiles: Array<{ uri: string; tests: StaticTest[] }>;
}

/** Notification `agentLens/status` (server → client) — server state and how many definitions are indexed. */
export const StatusNotification = "agentLens/status";
export interface StatusParams {
  state: "starting" | "indexing" | "ready" | "error";
  /** Machines + flows + agents indexed across the workspace. */
  definitions: number;
  files: number;
  message?: string;
}

/** The command every code lens carries; its single argument is a LensTarget. */
export const RunLensCommand = "agentLens.runLens";
export type RunLensArgs = [LensTarget];
