// Every string of a falai file that names a field, a step, a flow, a tool, an action, an event or a
// condition, with what it resolves to and what could be written there instead (completion candidates).
import type { AgentReference, CompletionCandidate, ReferenceRole, SymbolKind } from "../api";
import { fieldDetail, stepDetail } from "./describe";
import { forEachAgentPred, forEachFieldRef, forEachNext, forEachPred, stepIdIn } from "./walk";
import type { AgentModel, FalaiFileModel, FieldSetModel, FlowModel, Registration, RegistrationKind, Str } from "./model";

const END: CompletionCandidate = { insertText: "end", kind: "step", detail: "ends the run" };
const REGISTRY_OF: Record<RegistrationKind, (a: AgentModel) => Registration[]> = {
  tool: (a) => a.tools.entries,
  action: (a) => a.actions.entries,
  event: (a) => a.events.entries,
  condition: (a) => a.conditions.entries,
};

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

function stepCandidatesOf(flow: FlowModel): CompletionCandidate[] {
  return [...uniqueByName(flow.steps.flatMap((s) => (s.id ? [{ insertText: s.id.text, kind: "step" as const, symbolId: s.symbolId, detail: stepDetail(s) }] : []))), END];
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
  /** What a flow's steps may name of one kind: the registrations of the agents in this file that
   *  include it, else everything of that kind declared in this file. */
  const registrationsFor = (flow: FlowModel, kind: RegistrationKind): Registration[] => {
    const agents = byFlow.get(flow) ?? [];
    // one agent (the common case): its own list, so candidate lists are built once per agent
    const regs = agents.length === 1 ? REGISTRY_OF[kind](agents[0]!) : agents.flatMap(REGISTRY_OF[kind]);
    return regs.length ? regs : model.registrations.filter((r) => r.kind === kind);
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
  // one candidate list and one id map per set of agents (a file's flows may all share one agent)
  const flowLists = new Map<AgentModel | undefined, { candidates: CompletionCandidate[]; ids: Map<string, string> }>();
  const flowListOf = (agents: AgentModel[]) => {
    const key = agents.length === 1 ? agents[0] : undefined;
    let l = key || agents.length === 0 ? flowLists.get(key) : undefined;
    if (!l) {
      const flows = agents.length ? agents.flatMap((a) => a.flows.map((e) => e.flow)) : model.flows;
      const candidates = uniqueByName(flows.flatMap((f) => (f.id ? [{ insertText: f.id.text, kind: "flow" as const, symbolId: f.symbolId, detail: f.name }] : [])));
      const ids = new Map<string, string>();
      for (const f of flows) if (f.id && !ids.has(f.id.text)) ids.set(f.id.text, f.symbolId);
      // a flow named here but run by none of the agents is still a flow of this file
      for (const f of model.flows) if (f.id && !ids.has(f.id.text)) ids.set(f.id.text, f.symbolId);
      l = { candidates, ids };
      if (key || agents.length === 0) flowLists.set(key, l);
    }
    return l;
  };
  const registered = (regs: Registration[], name: string) => regs.find((r) => r.name === name)?.symbolId;

  for (const flow of model.flows) {
    const set = flow.builder.fieldSet;
    const fieldList = set ? fieldListOf(set) : undefined;
    const fieldCandidates = fieldList ? fieldList.candidates : flow.builder.known ? [] : undefined;
    // (no named closures per flow: a file may hold thousands of flows)
    let steps: CompletionCandidate[] | undefined;
    const agents = byFlow.get(flow) ?? [];
    const tools = registrationsFor(flow, "tool");
    const actions = registrationsFor(flow, "action");
    const events = registrationsFor(flow, "event");
    const conditions = registrationsFor(flow, "condition");

    forEachFieldRef(flow, { fieldRef: (ref, via) => push(via === "collect" ? "collect" : "field", "field", ref, fieldList?.ids.get(ref.text), fieldCandidates) });
    for (const t of flow.triggers) if (t.event) push("event", "event", t.event, registered(events, t.event.text), regCandidates(events));
    forEachPred(flow, (pred) => {
      for (const c of pred.conditions) push("condition", "condition", c, registered(conditions, c.text), regCandidates(conditions));
    });
    for (const t of flow.tools) push("tool", "tool", t, registered(tools, t.text), regCandidates(tools));
    for (const step of flow.steps) {
      forEachNext(step, (next) => {
        if (next.kind === "step") push("next", "step", next.step, stepIdIn(flow, next.step.text), (steps ??= stepCandidatesOf(flow)));
        else if (next.kind === "end") push("next", "step", next.str, undefined, (steps ??= stepCandidatesOf(flow)));
        else if (next.kind === "flow" && next.flow) {
          const flows = flowListOf(agents);
          push("flow-ref", "flow", next.flow, flows.ids.get(next.flow.text), flows.candidates);
        }
      });
      for (const t of step.tools) push("tool", "tool", t, registered(tools, t.text), regCandidates(tools));
      if (step.do) push("action", "action", step.do, registered(actions, step.do.text), regCandidates(actions));
      if (step.waitEvent) push("event", "event", step.waitEvent, registered(events, step.waitEvent.text), regCandidates(events));
    }
  }
  for (const agent of model.agents) {
    for (const t of agent.idleTools) push("tool", "tool", t, registered(agent.tools.entries, t.text), regCandidates(agent.tools.entries));
    const conditions = agent.conditions.entries;
    const set = agent.builder.fieldSet;
    const fieldList = set ? fieldListOf(set) : undefined;
    const fieldCandidates = fieldList ? fieldList.candidates : agent.builder.known ? [] : undefined;
    forEachAgentPred(agent, (pred) => {
      for (const c of pred.conditions) push("condition", "condition", c, registered(conditions, c.text), regCandidates(conditions));
      for (const f of pred.fields) push("field", "field", f, fieldList?.ids.get(f.text), fieldCandidates);
    });
  }
  for (const site of model.turnSites) {
    const agents = site.agent ? [site.agent] : [];
    if (site.startFlow) {
      const flows = flowListOf(agents);
      push("flow-ref", "flow", site.startFlow, flows.ids.get(site.startFlow.text), flows.candidates);
    }
    if (site.event && site.agent) push("event", "event", site.event, registered(site.agent.events.entries, site.event.text), regCandidates(site.agent.events.entries));
  }
  for (const s of model.scriptKeys) {
    const candidates = s.candidates.map((c): CompletionCandidate => ({ insertText: c.name, kind: s.kind, symbolId: c.symbolId, detail: c.detail }));
    push(s.kind === "flow" ? "flow-ref" : "collect", s.kind, s.key, s.targetId, candidates);
  }
  return out;
}
