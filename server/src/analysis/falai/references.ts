// Every string of a falai file that names a field, a step, a tool or an action, with what it resolves
// to and what could be written there instead (completion candidates).
import type { AgentReference, CompletionCandidate, ReferenceRole, SymbolKind } from "../api";
import { fieldDetail, stepDetail } from "./describe";
import type { AgentModel, FalaiFileModel, FieldSetModel, FlowModel, Registration, Str } from "./model";

const END: CompletionCandidate = { insertText: "end", kind: "step", detail: "ends the run" };

/** The agents of this file that include each flow. */
function agentsByFlow(model: FalaiFileModel): Map<FlowModel, AgentModel[]> {
  const map = new Map<FlowModel, AgentModel[]>();
  for (const agent of model.agents) {
    for (const entry of agent.flows) {
      const list = map.get(entry.flow) ?? [];
      if (!list.includes(agent)) list.push(agent);
      map.set(entry.flow, list);
    }
  }
  return map;
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
  const byFlow = agentsByFlow(model);
  const fileRegs = { tool: model.registrations.filter((r) => r.kind === "tool"), action: model.registrations.filter((r) => r.kind === "action") };
  /** The tools / actions a flow's steps may name: those of the agents in this file that include it, else all in this file. */
  const registrationsFor = (flow: FlowModel, kind: "tool" | "action"): Registration[] => {
    const agents = byFlow.get(flow) ?? [];
    // one agent (the common case): its own list, so candidate lists are built once per agent
    const regs = agents.length === 1 ? (kind === "tool" ? agents[0].tools : agents[0].actions) : agents.flatMap((a) => (kind === "tool" ? a.tools : a.actions));
    return regs.length ? regs : fileRegs[kind];
  };
  // candidate lists are shared by every reference of a field set / registration list (files may hold thousands)
  const fieldLists = new Map<FieldSetModel, { candidates: CompletionCandidate[]; ids: Map<string, string> }>();
  const fieldListOf = (set: FieldSetModel) => {
    let l = fieldLists.get(set);
    if (!l) {
      l = { candidates: set.fields.map((f): CompletionCandidate => ({ insertText: f.name, kind: "field", symbolId: f.symbolId, detail: fieldDetail(f) })), ids: new Map(set.fields.map((f) => [f.name, f.symbolId])) };
      fieldLists.set(set, l);
    }
    return l;
  };
  const regLists = new Map<Registration[], CompletionCandidate[]>();
  const regCandidates = (regs: Registration[]) => {
    let l = regLists.get(regs);
    if (!l) {
      l = uniqueByName(regs.map((r): CompletionCandidate => ({ insertText: r.name, kind: r.kind, symbolId: r.symbolId, detail: r.description ?? r.kind })));
      regLists.set(regs, l);
    }
    return l;
  };
  for (const flow of model.flows) {
    const set = flow.builder.fieldSet;
    const fieldList = set ? fieldListOf(set) : undefined;
    const fieldCandidates = fieldList ? fieldList.candidates : flow.builder.known ? [] : undefined;
    const fieldId = (name: string) => fieldList?.ids.get(name);
    let steps: CompletionCandidate[] | undefined;
    const stepCandidates = () =>
      (steps ??= [...uniqueByName(flow.steps.flatMap((s) => (s.id ? [{ insertText: s.id.text, kind: "step" as const, symbolId: s.symbolId, detail: stepDetail(s) }] : []))), END]);
    const stepId = (name: string) => flow.steps.find((s) => s.id?.text === name)?.symbolId;
    const tools = registrationsFor(flow, "tool");
    const actions = registrationsFor(flow, "action");

    for (const t of flow.triggers) for (const e of t.extract) push("collect", "field", e, fieldId(e.text), fieldCandidates);
    for (const step of flow.steps) {
      for (const c of step.collect) push("collect", "field", c, fieldId(c.text), fieldCandidates);
      if (step.else) push("else", "step", step.else, stepId(step.else.text), stepCandidates());
      for (const b of step.branches) if (b.goto) push("goto", "step", b.goto, stepId(b.goto.text), stepCandidates());
      for (const t of step.tools) push("tool", "tool", t, tools.find((r) => r.name === t.text)?.symbolId, regCandidates(tools));
      for (const a of step.do) push("action", "action", a, actions.find((r) => r.name === a.text)?.symbolId, regCandidates(actions));
    }
  }
  for (const s of model.scriptKeys) {
    const candidates = s.candidates.map((c): CompletionCandidate => ({ insertText: c.name, kind: s.kind, symbolId: c.symbolId, detail: c.detail }));
    push(s.kind === "flow" ? "flow-ref" : "collect", s.kind, s.key, s.targetId, candidates);
  }
  return out;
}
