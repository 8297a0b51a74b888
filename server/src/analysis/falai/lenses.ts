// "Run turns" code lenses: one on each flow (runs that flow's turns from its own file) and one on each
// eval call site of `agent.turn` / `agent.turnStream` (runs the eval file).
import type { LensAnchor } from "../api";
import type { FalaiFileModel } from "./model";

export function lensesOf(model: FalaiFileModel): LensAnchor[] {
  const out: LensAnchor[] = [];
  for (const flow of model.flows) {
    if (!flow.id) continue;
    out.push({ kind: "run-turns", file: model.file, range: flow.range, title: "Run turns", target: { kind: "run-turns", file: model.file, flowId: flow.id.text } });
  }
  for (const site of model.turnSites) {
    const flows = site.agent?.flowsStatic ? site.agent.flows.map((e) => e.flow.symbolId) : undefined;
    out.push({ kind: "run-turns", file: model.file, range: site.range, title: "Run turns", target: { kind: "run-turns", file: model.file, line: site.line }, ...(flows ? { flows } : {}) });
  }
  return out;
}
