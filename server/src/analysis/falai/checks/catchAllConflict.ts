// catch-all-conflict: more than one flow with `message: []` (a catch-all) in one agent or one file.
import type { Finding, SourceRange } from "../../types";
import type { FlowModel } from "../model";
import { finding, type FalaiCheck } from "./finding";

const catchAll = (flow: FlowModel) => flow.triggers.find((t) => t.catchAll);

export const catchAllConflict: FalaiCheck = (model) => {
  const out: Finding[] = [];
  const report = (flow: FlowModel, first: FlowModel, at: SourceRange) => {
    const a = flow.id ? `'${flow.id.text}'` : "this flow";
    const b = first.id ? `'${first.id.text}'` : "another flow";
    out.push(finding("catch-all-conflict", `Flow ${a} is a second catch-all (message: []); ${b} already takes every message nothing else claims.`, model.file, at));
  };
  let firstInFile: FlowModel | undefined;
  for (const flow of model.flows) {
    const t = catchAll(flow);
    if (!t) continue;
    if (firstInFile) report(flow, firstInFile, t.keyRange ?? t.range);
    else firstInFile = flow;
  }
  for (const agent of model.agents) {
    let first: FlowModel | undefined;
    for (const entry of agent.flows) {
      const t = catchAll(entry.flow);
      if (!t || entry.flow === first) continue;
      if (!first) {
        first = entry.flow;
        continue;
      }
      // local pairs are already reported by the file rule
      if (entry.flow.file === model.file && first.file === model.file) continue;
      report(entry.flow, first, entry.refRange);
    }
  }
  return out;
};
