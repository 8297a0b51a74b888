// unreachable-step: no path from the first step reaches it (see reachability.ts for how runs move).
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { reachableSteps } from "../reachability";
import { finding } from "./finding";

export const unreachableStep: CheckDescriptor<FalaiFileModel> = {
  code: "unreachable-step",
  severity: "warning",
  description: "No path from the first step reaches this step.",
  when: "no path from the first step reaches it",
  docs: "no path from the first step reaches it (every exit of every step followed)",
  run: (model) => {
    const out: Finding[] = [];
    for (const flow of model.flows) {
      const reached = reachableSteps(flow);
      if (!reached) continue;
      const first = flow.steps[0]!.id ? `'${flow.steps[0]!.id.text}'` : "the first step";
      for (const step of flow.steps) {
        if (reached.has(step.index)) continue;
        const name = step.id ? `Step '${step.id.text}'` : `Step #${step.index + 1}`;
        out.push(finding("unreachable-step", `${name} is never reached: no path from ${first} leads to it (the steps before it always go elsewhere, and nothing jumps here).`, model.file, step.id?.full ?? step.range));
      }
    }
    return out;
  },
};
