// unreachable-step: no path from the first step reaches it. Steps run in order; a wait may also jump to
// its `else`; a branch may `goto` a step; "end" stops. A step falls through to the next one unless one of
// its branches has no `when` (the unconditional "otherwise" arm). Anything not statically known (an
// `else` / `goto` expression, branches we cannot read) means any step may be next, so nothing is reported.
import type { Finding } from "../../types";
import type { FlowModel } from "../model";
import { finding, type FalaiCheck } from "./finding";

/** Indexes of the steps a run of `flow` can reach, or undefined when that cannot be known. */
export function reachableSteps(flow: FlowModel): Set<number> | undefined {
  if (!flow.stepsStatic || flow.steps.length === 0) return undefined;
  const byId = new Map<string, number[]>();
  for (const s of flow.steps) if (s.id) byId.set(s.id.text, [...(byId.get(s.id.text) ?? []), s.index]);
  for (const s of flow.steps) {
    if (!s.branchesStatic || s.elseDynamic || s.branches.some((b) => b.gotoDynamic)) return undefined;
  }
  const seen = new Set<number>([0]);
  const queue = [0];
  const visit = (i: number) => {
    if (i < flow.steps.length && !seen.has(i)) {
      seen.add(i);
      queue.push(i);
    }
  };
  while (queue.length) {
    const step = flow.steps[queue.shift()!];
    const jumps = [step.else?.text, ...step.branches.map((b) => b.goto?.text)];
    for (const target of jumps) for (const i of target ? byId.get(target) ?? [] : []) visit(i);
    const unconditional = step.branches.some((b) => !b.hasWhen);
    if (!unconditional) visit(step.index + 1);
  }
  return seen;
}

export const unreachableStep: FalaiCheck = (model) => {
  const out: Finding[] = [];
  for (const flow of model.flows) {
    const reached = reachableSteps(flow);
    if (!reached) continue;
    const first = flow.steps[0].id ? `'${flow.steps[0].id.text}'` : "the first step";
    for (const step of flow.steps) {
      if (reached.has(step.index)) continue;
      const name = step.id ? `Step '${step.id.text}'` : `Step #${step.index + 1}`;
      out.push(finding("unreachable-step", `${name} is never reached: no path from ${first} leads to it (the step before it always jumps away).`, model.file, step.id?.full ?? step.range));
    }
  }
  return out;
};
