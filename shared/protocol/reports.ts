// What the runtime reports about each result a user's test produced (a seam run, an agent run, a turn, an
// explorePaths answer), as it reaches clients inside `result` events. The runtime (runtime/src/shared/
// report.ts) owns these shapes: it is bundled into the user's program and cannot depend on this module,
// so they are named here, not restated.
export type {
  ReportKind,
  SeamReportPayload,
  SeamSliceReport,
  AgentRunReportPayload,
  TurnReportPayload,
  VerificationReportPayload,
  MachineVisitedReport,
  FlowVisitedReport,
  FlowExitKind,
} from "../../runtime/src/shared/report";
