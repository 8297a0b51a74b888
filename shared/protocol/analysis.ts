// The analysis' data that reaches clients: diagrams, run targets of lenses, statically found tests,
// ranges, findings. The analysis library (server/src/analysis/api.ts, types.ts) owns these shapes — it is a
// pure library the protocol depends on, never the other way round — so they are named here, not restated.
export type { AgentGraph, LensTarget, StaticTest } from "../../server/src/analysis/api";
export type { Finding, FindingCode, Severity, SourceRange } from "../../server/src/analysis/types";
export type { EvalSite } from "../../server/src/analysis/catalog";
