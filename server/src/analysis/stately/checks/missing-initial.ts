// missing-initial: a compound state has child states but no `initial` (quiet when `initial` is computed
// or the state's config could not be read whole).
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { finding, machineLabel } from "./finding";

export const missingInitial: CheckDescriptor<MachineDef> = {
  code: "missing-initial",
  severity: "error",
  description: "A compound state has child states but no initial state.",
  when: "compound state without `initial`",
  docs: "a compound state has child states but no `initial`",
  run(machine) {
    const out: Finding[] = [];
    for (const state of machine.states) {
      if (state.type !== "compound" || state.initial) continue;
      if (state.initialDynamic || !state.configComplete || state.children.size === 0) continue;
      const name = state.path.length ? `State "${state.path.join(".")}"` : `The root of ${machineLabel(machine)}`;
      const first = [...state.children.keys()][0]!;
      out.push(finding("missing-initial", `${name} has child states but no "initial" (for example initial: "${first}").`, { at: state.at, node: state.keyNode ?? (machine.calleeNode) }));
    }
    return out;
  },
};
