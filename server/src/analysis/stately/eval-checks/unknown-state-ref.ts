// unknown-state-ref: canReach, matchesTrajectory over a state path, explorePaths name a state the machine
// does not have — a key, a dotted path, a #id, or a key path of a state-value object (`{ review: "editing" }`).
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import { findingWithNearest, machineLabel } from "../checks/finding";
import type { EvalCall, MachineDef, StateDef } from "../model";
import { resolveStateRef } from "../targets";
import type { EvalFile } from "./eval-file";

export const unknownStateRef: CheckDescriptor<EvalFile> = {
  code: "unknown-state-ref",
  severity: "error",
  description: "canReach / matchesTrajectory / explorePaths name a state the machine does not have.",
  when: "`canReach`, or `matchesTrajectory` over a state path (`run.after.statePath`, or a local list filled by `onTransition` / `subscribe`), names a state the machine does not have",
  docs: "`canReach`, or `matchesTrajectory` over a state path (a run's, a simulateAgent trail's states, or a local list provably filled by `onTransition` / `subscribe` / inspection), names a state (a key, dotted path, `#id` or a state-node id without `#`, or a key of a state-value object) the machine does not have",
  quickFix: "change to the nearest state path",
  run: ({ calls }) => calls.flatMap((call) => (call.machine ? [...stateRefs(call, call.machine), ...stateValueRefs(call, call.machine)] : [])),
};

function stateRefs(call: EvalCall, machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const ref of call.stateRefs) {
    const r = resolveStateRef(machine, ref.text);
    if (r !== undefined) continue;
    const names = machine.states.filter((s) => s.parent).map((s) => s.path.join("."));
    out.push(findingWithNearest("unknown-state-ref", `${call.api}: ${machineLabel(machine)} has no state "${ref.text}".`, ref, names));
  }
  return out;
}

/** `{ review: "editing" }`: each key path must go down the state tree. */
function stateValueRefs(call: EvalCall, machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const path of call.stateValueRefs) {
    let state: StateDef = machine.root;
    for (const segment of path) {
      if (!state.childrenComplete) break;
      const child = state.children.get(segment.text);
      if (child) {
        state = child;
        continue;
      }
      const where = state.parent ? `state "${state.path.join(".")}"` : machineLabel(machine);
      out.push(findingWithNearest("unknown-state-ref", `${call.api}: ${where} has no child state "${segment.text}".`, segment, state.children.keys()));
      break;
    }
  }
  return out;
}
