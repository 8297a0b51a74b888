// The named things of a falai file, for outline, hover, definition and rename. Hover summaries are
// built on first read (a file may hold thousands of steps; hover asks for one).
import type { AgentSymbol } from "../api";
import { lazySummary } from "../util/lazy";
import { agentDetail, agentSummary, fieldDetail, fieldSetSummary, fieldSummary, flowDetail, flowSummary, registrationSummary, stepDetail, stepSummary } from "./describe";
import type { FalaiFileModel } from "./model";

export function symbolsOf(model: FalaiFileModel): AgentSymbol[] {
  const out: AgentSymbol[] = [];
  for (const set of model.fieldSets) {
    out.push(lazySummary({ id: set.symbolId, kind: "fieldSet", name: set.name, file: set.file, nameRange: set.nameRange, range: set.range, detail: `${set.fields.length} field${set.fields.length === 1 ? "" : "s"}` }, () => fieldSetSummary(set)));
    for (const f of set.fields) {
      out.push(lazySummary({ id: f.symbolId, kind: "field", name: f.name, file: set.file, nameRange: f.nameRange, range: f.range, parentId: set.symbolId, detail: fieldDetail(f) }, () => fieldSummary(f)));
    }
  }
  for (const flow of model.flows) {
    out.push(lazySummary({ id: flow.symbolId, kind: "flow", name: flow.id?.text ?? "flow", file: flow.file, nameRange: flow.id?.range ?? flow.range, range: flow.range, detail: flowDetail(flow) }, () => flowSummary(flow)));
    for (const step of flow.steps) {
      const symbol: AgentSymbol = {
        id: step.symbolId, kind: "step", name: step.id?.text ?? `#${step.index + 1}`, file: flow.file, nameRange: step.id?.range ?? step.range,
        range: step.range, parentId: flow.symbolId, detail: stepDetail(step),
      };
      out.push(lazySummary(symbol, () => stepSummary(step, flow)));
    }
  }
  for (const agent of model.agents) {
    out.push(lazySummary({ id: agent.symbolId, kind: "agent", name: agent.name ?? agent.varName ?? "agent", file: agent.file, nameRange: agent.nameRange, range: agent.range, detail: agentDetail(agent) }, () => agentSummary(agent)));
  }
  for (const r of model.registrations) {
    const symbol: AgentSymbol = { id: r.symbolId, kind: r.kind, name: r.name, file: r.file, nameRange: r.nameRange, range: r.range, parentId: r.ownerId, detail: r.description ?? r.kind };
    if (r.shorthand) symbol.shorthand = true;
    out.push(lazySummary(symbol, () => registrationSummary(r)));
  }
  return out;
}
