// untriggered-flow: a flow with no `on` triggers — nothing starts it (no message, silence or mention).
import type { Finding } from "../../types";
import { finding, type FalaiCheck } from "./finding";

export const untriggeredFlow: FalaiCheck = (model) => {
  const out: Finding[] = [];
  for (const flow of model.flows) {
    if (!flow.triggersStatic || flow.triggers.length > 0) continue;
    const name = flow.id ? `Flow '${flow.id.text}'` : "This flow";
    const why = flow.onPresent ? "its `on` list is empty" : "it has no `on`";
    out.push(finding("untriggered-flow", `${name} never starts: ${why}. Add a trigger such as { message: [...] }, { silence: "24h" } or { mention: "..." }.`, model.file, flow.id?.full ?? flow.range));
  }
  return out;
};
