// unreachable-state: no chain of transitions from the initial state enters a state (guards ignored);
// silent when reachability cannot be judged (a computed target).
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { reachability } from "../targets";
import { finding } from "./finding";

export const unreachableState: CheckDescriptor<MachineDef> = {
  code: "unreachable-state",
  severity: "warning",
  decidedByTargets: true,
  description: "No chain of transitions from the initial state enters this state (guards ignored).",
  when: "no chain of transitions from the initial state enters it (guards ignored, so no false alarms)",
  docs: "no chain of transitions from the initial state enters it (guards ignored; silent when any target is computed)",
  run(machine) {
    const reached = reachability(machine);
    if (!reached) return [];
    const out: Finding[] = [];
    for (const state of machine.states) {
      if (!state.parent || reached.has(state) || !reached.has(state.parent)) continue; // report the topmost only
      if (state.type === "history") continue; // history states are pseudo-states, entered by targeting them
      out.push(finding("unreachable-state", `State "${state.path.join(".")}" is never entered: no transition from the initial state leads to it.`, { at: state.at, node: state.keyNode ?? state.node }));
    }
    return out;
  },
};
