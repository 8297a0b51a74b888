// Which steps a run of a flow can reach. A run enters the first step; each step moves on along `then`
// (the next step in the list when absent; after the last one the run ends) and, by kind, along:
// a talk step's branches; a do step's `onFail`; a timed wait's `else` (and its branches, judged only
// when it has an `else`); an event wait's `else`; an if step's `else` (default "end"). "end" and
// `{ flow }` leave the flow. A jump we cannot read means any step may be next: nothing is judged.
import { CUT, GuessBudget, NameList, nearestIn } from "../util/name-index";
import type { BranchModel, FlowModel, NextModel, StepModel } from "./model";

/** Where a branch goes; one it cannot tell is dynamic. */
const branchExit = (b: BranchModel): NextModel => b.then ?? { kind: "dynamic" };

/** Where a step may go: the `Next`s it can take, `"fallthrough"` for the step after it. */
function exitsOf(step: StepModel): Array<NextModel | "fallthrough"> {
  const out: Array<NextModel | "fallthrough"> = [step.then ?? "fallthrough"];
  const branches = step.branches.map(branchExit);
  switch (step.kind) {
    case "talk":
      out.push(...branches);
      break;
    case "do":
      if (step.onFail) out.push(step.onFail);
      break;
    case "wait":
      if (step.else) out.push(step.else, ...branches);
      break;
    case "wait-event":
    case "if":
      if (step.else) out.push(step.else);
      break;
    case "say":
      break;
    default:
      // a step we cannot classify: every jump it carries may be taken
      for (const n of [step.else, step.onFail]) if (n) out.push(n);
      out.push(...branches);
  }
  return out;
}

/** Indexes of the steps a run of `flow` can reach, or undefined when that cannot be known. */
export function reachableSteps(flow: FlowModel): Set<number> | undefined {
  if (!flow.stepsStatic || flow.steps.length === 0) return undefined;
  const byId = new Map<string, number[]>();
  for (const s of flow.steps) {
    if (!s.complete || !s.branchesStatic) return undefined;
    if (s.id) byId.set(s.id.text, [...(byId.get(s.id.text) ?? []), s.index]);
  }
  const ids = new NameList([...byId.keys()]);
  const guesses = new Map<string, string | undefined>();
  const budget = new GuessBudget();
  const seen = new Set<number>([0]);
  const queue = [0];
  const visit = (i: number) => {
    if (i < flow.steps.length && !seen.has(i)) {
      seen.add(i);
      queue.push(i);
    }
  };
  for (let next = 0; next < queue.length; next++) {
    const step = flow.steps[queue[next]!]!;
    for (const exit of exitsOf(step)) {
      if (exit === "fallthrough") visit(step.index + 1);
      else if (exit.kind === "dynamic") return undefined;
      else if (exit.kind === "step") {
        // a jump to a step that does not exist (unknown-step says so) counts as reaching its likely fix
        // (one guess per name; when the guesses ran out of budget, nothing is judged)
        const text = exit.step.text;
        let target = byId.has(text) ? text : guesses.get(text);
        if (target === undefined && !byId.has(text) && !guesses.has(text)) {
          const guess = nearestIn(text, [ids], budget);
          if (guess === CUT) return undefined;
          guesses.set(text, (target = guess));
        }
        for (const i of target ? byId.get(target) ?? [] : []) visit(i);
      }
    }
  }
  return seen;
}
