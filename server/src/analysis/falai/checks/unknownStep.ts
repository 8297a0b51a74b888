// unknown-step: a `then`, `else`, `onFail`, a branch's `then` or a `{ step }` jump names no step of the
// flow (and is not "end"). The agent refuses such a flow when it is built.
import type { Finding } from "../../types";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";
import { forEachNext, stepIds } from "../walk";

export const unknownStep: FalaiCheck = (model) => {
  const out: Finding[] = [];
  for (const flow of model.flows) {
    if (!flow.stepsStatic) continue;
    const ids = stepIds(flow);
    const known = new Set(ids);
    for (const step of flow.steps) {
      forEachNext(step, (next) => {
        if (next.kind !== "step" || known.has(next.step.text) || next.step.unterminated) return;
        const ref = next.step;
        const { fix, suggestion } = nearestFix(model.file, ref, [...ids, "end"]);
        const where = flow.id ? ` of flow '${flow.id.text}'` : "";
        out.push(finding("unknown-step", `'${ref.text}' is no step${where} (nor "end").${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
      });
    }
  }
  return out;
};
