// Harness events and graphs shaped like the seed documents' runs (payload types from
// runtime/src/shared/report.ts), for the client's pure view-model and renderer tests.
import type { AgentGraph } from "../../server/src/analysis/api";
import type { HarnessEvent } from "@agent-lens/protocol";
import type { SeamReportPayload, TurnReportPayload } from "../../runtime/src/shared/report";

const range = (line: number) => ({ start: 0, end: 0, startLine: line, startColumn: 4, endLine: line, endColumn: 12 });

export const EVAL = "/w/evals/email.eval.ts";
export const AGENT = "/w/agents/email.ts";

export const seamPayload: SeamReportPayload = {
  request: "scoreDraft", occurrence: 1, seamOutput: { score: 4 },
  callsBeforeSeam: 1,
  calls: [
    { name: "draftEmail", model: "writer", key: "draftEmail", source: "script", seam: false },
    { name: "scoreDraft", model: "judge", key: "scoreDraft", source: "script", seam: true },
  ],
  before: { statePath: ["drafting", "scoring"], events: [{ type: "@xstate.init" }, { type: "xstate.done.actor", data: { actorId: "0.(machine).drafting" } }] },
  after: { statePath: ["done"], events: [{ type: "xstate.done.actor", data: { actorId: "0.(machine).scoring" } }] },
  status: "done", output: { draft: "Checkout now supports saved cards.", score: 4 },
};

export const machineGraph: AgentGraph = {
  kind: "machine", id: `${AGENT}#machine:machine`, name: "machine",
  nodes: [
    { id: "m.drafting", path: "drafting", label: "drafting", type: "atomic", initial: true, range: range(30), file: AGENT },
    { id: "m.scoring", path: "scoring", label: "scoring", type: "atomic", range: range(37), file: AGENT },
    { id: "m.done", path: "done", label: "done", type: "final", range: range(44), file: AGENT },
  ],
  edges: [
    { source: "m.drafting", target: "m.scoring", label: "done: draftEmail" },
    { source: "m.scoring", target: "m.done", label: "done: scoreDraft" },
  ],
};

export const flowGraph: AgentGraph = {
  kind: "flow", id: "/w/flows.ts#flow:triagem", name: "triagem",
  nodes: [
    { id: "triagem:quem", path: "quem", label: "quem", type: "step", initial: true, range: range(10), file: "/w/flows.ts" },
    { id: "triagem:tchau", path: "tchau", label: "tchau", type: "step", range: range(11), file: "/w/flows.ts" },
  ],
  edges: [{ source: "triagem:quem", target: "triagem:tchau", label: "" }],
};

export const turnPayload: TurnReportPayload = {
  flowIds: ["triagem"],
  input: { kind: "message", sessionId: "s1", message: "oi, sou a Ana, quero saber como funciona", id: "m1", historyLength: 0 },
  llmCalls: 2, changed: true,
  messages: [
    { text: "Oi!", kind: "verbatim", afterMs: 0, key: "triagem#m1:oi:1", runId: "triagem#m1", stepId: "oi" },
    { text: "Oi Ana! De qual empresa você fala?", kind: "ai", afterMs: 3000, key: "triagem#m1:quem:1", runId: "triagem#m1", stepId: "quem" },
  ],
  outcomes: [
    { runId: "triagem#m1", flowId: "triagem", stepId: "oi", key: "triagem#m1:oi:1", kind: "say", status: "ok", at: "2026-09-20T10:00:00.000Z" },
    { runId: "triagem#m1", flowId: "triagem", stepId: "quem", key: "triagem#m1:quem:1", kind: "collect", status: "ok", at: "2026-09-20T10:00:00.000Z", llmCalls: 1 },
    { kind: "collect", status: "skipped", code: "not-in-enum", message: "The value is not one of the field's allowed values; it was dropped.", detail: "tamanho", at: "2026-09-20T10:00:00.000Z" },
  ],
  schedule: [{ key: "silence:retomar:s1:1789898400000", at: "2026-09-21T10:00:00.000Z" }],
  started: [{ runId: "triagem#m1", flowId: "triagem", anchor: "s1", dedupeKey: "triagem:s1:" }],
  ended: [{ id: "boas#m0", flowId: "boas", stepId: "s", reason: "end" }],
  skipped: [{ flowId: "pediu_humano", anchor: "s1", triggerKey: "m1", code: "already-claimed", message: "This flow already ran for this session or anchor, or this trigger key was already used." }],
  session: { id: "s1", version: 0, data: { nome: "Ana" }, runs: [{ id: "triagem#m1", flowId: "triagem", stepId: "quem", status: "asking" }] },
  now: "2026-09-20T10:00:00.000Z",
};

export function seamRun(line = 12): HarnessEvent[] {
  return [
    { type: "start", file: EVAL, pid: 1, time: "2026-12-02T00:00:00.000Z", runtime: { "@statelyai/agent": "bundled" } },
    { type: "result", kind: "seam", callSite: { file: EVAL, line: 5, column: 19 }, data: { ...seamPayload, request: "draftEmail", seamOutput: "Checkout now supports saved cards." } },
    { type: "result", kind: "seam", callSite: { file: EVAL, line, column: 19 }, data: seamPayload },
    { type: "console", stream: "stdout", text: "ok\n" },
    { type: "end", file: EVAL, status: "passed", durationMs: 321, summary: { passed: 1, failed: 0, skipped: 0 } },
  ];
}
