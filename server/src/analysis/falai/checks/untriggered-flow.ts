// untriggered-flow: a flow with no trigger (no `on`, or an empty one) that nothing can start: no
// `turn({ start })` and no `then: { flow }` names it, and it is not used anywhere this file cannot see
// (see extract/starts.ts). A flow with no trigger is fine when something starts it by hand.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { finding } from "./finding";

export const untriggeredFlow: CheckDescriptor<FalaiFileModel> = {
  code: "untriggered-flow",
  severity: "warning",
  description: "A flow has no triggers and nothing can start it (no turn({ start }) and no then: { flow } names it).",
  when: "a flow with no trigger that nothing can start (no `turn({ start })`, no `then: { flow }`)",
  docs: "a flow with no trigger that nothing can start: no `turn({ start })`, no `then: { flow }`, and nothing this file cannot see",
  run: (model) => {
    const out: Finding[] = [];
    for (const flow of model.flows) {
      if (flow.startable || !flow.triggersStatic || flow.triggers.length > 0) continue;
      const name = flow.id ? `Flow '${flow.id.text}'` : "This flow";
      const why = flow.onPresent ? "its `on` list is empty" : "it has no `on`";
      out.push(finding("untriggered-flow", `${name} never starts: ${why}, and no turn({ start }) or then: { flow } names it. Add a trigger such as { message: [...] }, { silence: "24h" } or { event: "..." }, or start it by hand.`, model.file, flow.id?.full ?? flow.range));
    }
    return out;
  },
};
