// unknown-target: a transition target names no state of the machine. Each finding carries the nearest
// valid target as a guess; the guesses of one machine share one budget (util/name-index.ts), and once it
// is spent the remaining findings carry none.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import { CUT, GuessBudget } from "../../util/name-index";
import type { MachineDef } from "../model";
import { TargetCandidates } from "../target-candidates";
import { findingWithGuess, findingWithNearest } from "./finding";

export const unknownTarget: CheckDescriptor<MachineDef> = {
  code: "unknown-target",
  severity: "error",
  decidedByTargets: true,
  description: "A transition target names no state of the machine.",
  when: "a transition target (`\"x\"`, `\".child\"`, `\"#id\"`, `\"parent.child\"`) names no state; quick fix: nearest name",
  docs: "a transition target (`\"x\"`, `\".child\"`, `\"#id\"`, `\"parent.child\"`, in `on`, `always`, `after`, `onDone`, `onError`, `onSnapshot`, history `target`, and every `return { target }` of a v6 function transition) names no state",
  quickFix: "change to the nearest valid target (`.x` for a root transition)",
  run(machine) {
    const out: Finding[] = [];
    const candidates = new TargetCandidates();
    const budget = new GuessBudget();
    for (const state of machine.states) {
      for (const t of state.transitions) {
        for (const target of t.targets) {
          if (target.status !== "unknown") continue;
          const from = state.path.length ? `state "${state.path.join(".")}"` : "the machine root";
          const rootFix = !state.parent && !target.text.startsWith(".") && !target.text.startsWith("#") && state.children.has(target.text.split(".")[0]!) ? [`.${target.text}`] : [];
          const message = `Transition target "${target.text}" (from ${from}) names no state.`;
          if (rootFix.length) out.push(findingWithNearest("unknown-target", message, target, rootFix));
          else {
            const guess = candidates.nearest(state, target.text, budget);
            out.push(findingWithGuess("unknown-target", message, target, guess === CUT ? undefined : guess));
          }
        }
      }
    }
    return out;
  },
};
