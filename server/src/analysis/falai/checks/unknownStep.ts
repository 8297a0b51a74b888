// unknown-step: a wait's `else` or a branch's `goto` names no step of the flow and is not "end".
import type { Finding } from "../../types";
import type { Str } from "../model";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

export const unknownStep: FalaiCheck = (model) => {
  const out: Finding[] = [];
  for (const flow of model.flows) {
    if (!flow.stepsStatic) continue;
    const ids = flow.steps.flatMap((s) => (s.id ? [s.id.text] : []));
    const known = new Set(ids);
    const refs: Array<{ ref: Str; via: string }> = [];
    for (const step of flow.steps) {
      if (step.else) refs.push({ ref: step.else, via: "else" });
      for (const b of step.branches) if (b.goto) refs.push({ ref: b.goto, via: "goto" });
    }
    for (const { ref, via } of refs) {
      if (ref.text === "end" || known.has(ref.text) || ref.unterminated) continue;
      const { fix, suggestion } = nearestFix(model.file, ref, [...ids, "end"]);
      const where = flow.id ? ` of flow '${flow.id.text}'` : "";
      out.push(finding("unknown-step", `'${via}' names '${ref.text}', which is no step${where} (nor "end").${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
    }
  }
  return out;
};
