// duplicate-step: two steps of one flow share an id.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { finding } from "./finding";

export const duplicateStep: CheckDescriptor<FalaiFileModel> = {
  code: "duplicate-step",
  severity: "error",
  description: "Two steps of a flow share an id.",
  when: "two steps of a flow share an id",
  docs: "two steps of a flow share an id",
  run: (model) => {
    const out: Finding[] = [];
    for (const flow of model.flows) {
      const seen = new Set<string>();
      for (const step of flow.steps) {
        if (!step.id) continue;
        if (seen.has(step.id.text)) out.push(finding("duplicate-step", `Another step of this flow already has the id '${step.id.text}'.`, model.file, step.id.full));
        seen.add(step.id.text);
      }
    }
    return out;
  },
};
