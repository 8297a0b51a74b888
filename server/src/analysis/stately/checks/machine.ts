// Machine structure checks: unknown-target, unreachable-state, missing-initial, unknown-initial, and the
// analysis-skipped note for states nested too deep to read.
import type { Finding } from "../../types";
import { MAX_NESTING } from "../machine";
import type { MachineDef } from "../model";
import { reachability, resolveInitial, TargetCandidates } from "../targets";
import { CUT, GuessBudget } from "../../util/name-index";
import { finding, findingWithGuess, findingWithNearest, machineLabel } from "./finding";

/** Each unknown target with its nearest valid target as a guess; the guesses of one machine share one
 *  budget (util/name-index.ts), and once it is spent the remaining findings carry none. */
export function checkUnknownTargets(machine: MachineDef): Finding[] {
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
}

export function checkUnreachableStates(machine: MachineDef): Finding[] {
  const reached = reachability(machine);
  if (!reached) return [];
  const out: Finding[] = [];
  for (const state of machine.states) {
    if (!state.parent || reached.has(state) || !reached.has(state.parent)) continue; // report the topmost only
    if (state.type === "history") continue; // history states are pseudo-states, entered by targeting them
    out.push(finding("unreachable-state", `State "${state.path.join(".")}" is never entered: no transition from the initial state leads to it.`, { at: state.at, node: state.keyNode ?? state.node }));
  }
  return out;
}

export function checkInitials(machine: MachineDef): Finding[] {
  const out: Finding[] = [];
  for (const state of machine.states) {
    if (state.type !== "compound") continue;
    if (!state.initial) {
      if (state.initialDynamic || !state.configComplete || state.children.size === 0) continue;
      const name = state.path.length ? `State "${state.path.join(".")}"` : `The root of ${machineLabel(machine)}`;
      const first = [...state.children.keys()][0]!;
      out.push(finding("missing-initial", `${name} has child states but no "initial" (for example initial: "${first}").`, { at: state.at, node: state.keyNode ?? (machine.calleeNode) }));
      continue;
    }
    const r = resolveInitial(state);
    if (r?.status === "unknown") {
      out.push(findingWithNearest("unknown-initial", `Initial state "${state.initial.text}" is not a child of ${state.path.length ? `"${state.path.join(".")}"` : "the machine"}.`, state.initial, state.children.keys()));
    }
  }
  return out;
}

export function checkSkippedNesting(machine: MachineDef): Finding[] {
  const state = machine.nestingSkipped;
  if (!state) return [];
  const message = `Not analyzed: states nested more than ${MAX_NESTING} levels deep. The states inside "${state.key}" (level ${state.path.length}) were skipped, so findings about them (and targets into them) may be missing.`;
  return [finding("analysis-skipped", message, { at: state.at, node: state.keyNode ?? state.node })];
}
