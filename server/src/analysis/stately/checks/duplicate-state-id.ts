// duplicate-state-id: two states of one machine written with the same `id:` (or a state with the
// machine's own id). XState accepts the machine without a word (v5's StateNode and v6.0.0-alpha.52, the
// version bundled, alike: `machine.idMap.set(this.id, this)`), and the id map keeps only the state read
// last — depth first, in the order the states are written — so a `#id` target enters that one whichever
// was meant, and the state it replaced can no longer be reached by its id. Only literal ids are compared.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef, StateDef, Text } from "../model";
import { finding, machineLabel } from "./finding";

/** A state as a message names it. */
const named = (s: StateDef) => (s.path.length ? `"${s.path.join(".")}"` : "the machine root");

/** Keys a JavaScript object orders before the others (integers): then the order XState reads is not the
 *  written one, and which state it keeps is not said. */
const reordered = (machine: MachineDef) => machine.states.some((s) => /^(0|[1-9]\d*)$/.test(s.key));

export const duplicateStateId: CheckDescriptor<MachineDef> = {
  code: "duplicate-state-id",
  severity: "error",
  description: "Two states of one machine have the same id: XState keeps only the last one, so a #id target enters it whichever was meant.",
  when: "two states of one machine (or a state and the machine) have the same `id:` — XState keeps only the last, so `#id` targets enter it",
  docs: "two states of one machine have the same literal `id:`, or a state has the machine's own id: XState (v5, and the bundled v6.0.0-alpha.52) accepts it, and its id map keeps only the state read last (depth first, in written order), so `#id` targets enter that one and the other cannot be reached by its id; an integer state key reorders what XState reads, and then the message does not say which one is kept",
  run(machine) {
    const byId = new Map<string, Array<{ state: StateDef; id: Text }>>();
    for (const state of machine.states) {
      const id = state.parent ? state.id : undefined;
      if (!id) continue;
      byId.set(id.text, [...(byId.get(id.text) ?? []), { state, id }]);
    }
    const out: Finding[] = [];
    for (const [id, states] of byId) {
      const rootToo = machine.configId === id;
      if (states.length < 2 && !rootToo) continue;
      const all = [...(rootToo ? [machine.root] : []), ...states.map((s) => s.state)];
      const kept = reordered(machine) ? "" : ` XState keeps only the last one, so "#${id}" enters ${named(all.at(-1)!)}.`;
      for (const { state, id: where } of states) {
        const others = all.filter((s) => s !== state).map(named);
        out.push(finding("duplicate-state-id", `State ${named(state)} has the id "${id}", as ${others.join(" and ")} of ${machineLabel(machine)} ${others.length > 1 ? "do" : "does"}.${kept}`, where));
      }
    }
    return out;
  },
};
