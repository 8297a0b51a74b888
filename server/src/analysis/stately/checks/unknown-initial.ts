// unknown-initial: a compound state's `initial` names no child of it; the nearest child is the fix.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { resolveInitial } from "../targets";
import { findingWithNearest } from "./finding";

export const unknownInitial: CheckDescriptor<MachineDef> = {
  code: "unknown-initial",
  severity: "error",
  description: "The initial state names no child state.",
  when: "`initial` naming no child",
  docs: "`initial` names no child",
  quickFix: "change to the nearest child",
  run(machine) {
    const out: Finding[] = [];
    for (const state of machine.states) {
      if (state.type !== "compound" || !state.initial) continue;
      const r = resolveInitial(state);
      if (r?.status === "unknown") {
        out.push(findingWithNearest("unknown-initial", `Initial state "${state.initial.text}" is not a child of ${state.path.length ? `"${state.path.join(".")}"` : "the machine"}.`, state.initial, state.children.keys()));
      }
    }
    return out;
  },
};
