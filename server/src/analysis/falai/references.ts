// Every string of a falai file that names a field, a step, a tool or an action, with what it resolves
// to and what could be written there instead (completion candidates).
import type { AgentReference, CompletionCandidate, ReferenceRole, SymbolKind } from "../api";
import { fieldDetail, stepDetail } from "./describe";
import type { FalaiFileModel, FlowModel, Registration, Str } from "./model";

const END: CompletionCandidate = { insertText: "end", kind: "step", detail: "ends the run" };

/** The tools / actions a flow's steps may name: those of the agents in this file that include it, else all in this file. */
function registrationsFor(model: FalaiFileModel, flow: FlowModel, kind: "tool" | "action"): Registration[] {
  const agents = model.agents.filter((a) => a.flows.some((e) => e.flow === flow));
  const regs = agents.flatMap((a) => (kind === "tool" ? a.tools : a.actions));
  return regs.length ? regs : model.registrations.filter((r) => r.kind === kind);
}

function uniqueByName<T extends { insertText: string }>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((c) => (seen.has(c.insertText) ? false : (seen.add(c.insertText), true)));
}

export function referencesOf(model: FalaiFileModel): AgentReference[] {
  const out: AgentReference[] = [];
  const push = (role: ReferenceRole, kind: SymbolKind, s: Str, targetId: string | undefined, candidates: CompletionCandidate[] | undefined) => {
    const ref: AgentReference = { role, kind, file: model.file, range: s.range, text: s.text };
    if (targetId) ref.targetId = targetId;
    if (candidates) ref.candidates = candidates;
    out.push(ref);
  };
  for (const flow of model.flows) {
    const set = flow.builder.fieldSet;
    const fieldCandidates = set ? set.fields.map((f): CompletionCandidate => ({ insertText: f.name, kind: "field", symbolId: f.symbolId, detail: fieldDetail(f) })) : flow.builder.known ? [] : undefined;
    const fieldId = (name: string) => set?.fields.find((f) => f.name === name)?.symbolId;
    const stepCandidates: CompletionCandidate[] = [
      ...uniqueByName(flow.steps.flatMap((s) => (s.id ? [{ insertText: s.id.text, kind: "step" as const, symbolId: s.symbolId, detail: stepDetail(s) }] : []))),
      END,
    ];
    const stepId = (name: string) => flow.steps.find((s) => s.id?.text === name)?.symbolId;
    const tools = registrationsFor(model, flow, "tool");
    const actions = registrationsFor(model, flow, "action");
    const regCandidates = (regs: Registration[]) => uniqueByName(regs.map((r): CompletionCandidate => ({ insertText: r.name, kind: r.kind, symbolId: r.symbolId, detail: r.description ?? r.kind })));
    const toolCandidates = regCandidates(tools);
    const actionCandidates = regCandidates(actions);

    for (const t of flow.triggers) for (const e of t.extract) push("collect", "field", e, fieldId(e.text), fieldCandidates);
    for (const step of flow.steps) {
      for (const c of step.collect) push("collect", "field", c, fieldId(c.text), fieldCandidates);
      if (step.else) push("else", "step", step.else, stepId(step.else.text), stepCandidates);
      for (const b of step.branches) if (b.goto) push("goto", "step", b.goto, stepId(b.goto.text), stepCandidates);
      for (const t of step.tools) push("tool", "tool", t, tools.find((r) => r.name === t.text)?.symbolId, toolCandidates);
      for (const a of step.do) push("action", "action", a, actions.find((r) => r.name === a.text)?.symbolId, actionCandidates);
    }
  }
  return out;
}
