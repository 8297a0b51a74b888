// What a flow names, walked once for every check that needs it: jumps (`Next`s) and predicates.
import type { FlowModel, NextModel, PredModel, StepModel, Str } from "../model";

/** Every `Next` of a step: `then`, `else`, `onFail` and each branch's `then`. */
export function nextsOfStep(step: StepModel): NextModel[] {
  const out: NextModel[] = [];
  for (const next of [step.then, step.else, step.onFail, ...step.branches.map((b) => b.then)]) if (next) out.push(next);
  return out;
}

export function nextsOfFlow(flow: FlowModel): NextModel[] {
  return flow.steps.flatMap(nextsOfStep);
}

/** Every JSON predicate of a flow: trigger `if`s, `while`, `if` steps, branch `if`s, instructions. */
export function predsOfFlow(flow: FlowModel): PredModel[] {
  const out: PredModel[] = [];
  for (const t of flow.triggers) if (t.if) out.push(t.if);
  if (flow.while) out.push(flow.while);
  out.push(...flow.instructionPreds);
  for (const step of flow.steps) {
    if (step.if) out.push(step.if);
    for (const b of step.branches) if (b.if) out.push(b.if);
    out.push(...step.instructionPreds);
  }
  return out;
}

/** Every place a flow names a field: `collect`, a talk step's `ask` keys, `clear` lists, `clearOnStart`,
 *  and the `equals` / `known` of its predicates. */
export function fieldRefsOfFlow(flow: FlowModel): Array<{ ref: Str; via: string }> {
  const out: Array<{ ref: Str; via: string }> = [];
  for (const ref of flow.clearOnStart) out.push({ ref, via: "clearOnStart" });
  for (const step of flow.steps) {
    for (const ref of step.collect) out.push({ ref, via: "collect" });
    for (const ref of step.askKeys) out.push({ ref, via: "ask" });
    for (const next of nextsOfStep(step)) if (next.kind === "step" || next.kind === "end") for (const ref of next.clear) out.push({ ref, via: "clear" });
  }
  for (const pred of predsOfFlow(flow)) for (const ref of pred.fields) out.push({ ref, via: "a condition" });
  return out;
}

/** The step ids of a flow. */
export function stepIds(flow: FlowModel): string[] {
  return flow.steps.flatMap((s) => (s.id ? [s.id.text] : []));
}
