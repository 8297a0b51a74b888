// What a flow names, walked for every check and output that needs it: jumps (`Next`s), predicates and
// field names. Visitors rather than lists: a file may hold hundreds of flows, and these run for each.
import type { AgentModel, FlowModel, NextModel, PredModel, StepModel, Str } from "./model";

/** Every `Next` of a step: `then`, `else`, `onFail` and each branch's `then`. */
export function forEachNext(step: StepModel, visit: (next: NextModel) => void): void {
  if (step.then) visit(step.then);
  if (step.else) visit(step.else);
  if (step.onFail) visit(step.onFail);
  for (const b of step.branches) if (b.then) visit(b.then);
}

/** Every JSON predicate of a flow: trigger `if`s, `while`, instructions, `if` steps, branch `if`s. */
export function forEachPred(flow: FlowModel, visit: (pred: PredModel) => void): void {
  for (const t of flow.triggers) if (t.if) visit(t.if);
  if (flow.while) visit(flow.while);
  for (const p of flow.instructionPreds) visit(p);
  for (const step of flow.steps) {
    if (step.if) visit(step.if);
    for (const b of step.branches) if (b.if) visit(b.if);
    for (const p of step.instructionPreds) visit(p);
  }
}

/** Every place a flow names a field: `clearOnStart`, `collect`, a talk step's `ask` keys, `clear` lists,
 *  and the `equals` / `known` of its predicates. */
export function forEachFieldRef(flow: FlowModel, visit: (ref: Str, via: string) => void): void {
  for (const ref of flow.clearOnStart) visit(ref, "clearOnStart");
  for (const step of flow.steps) {
    for (const ref of step.collect) visit(ref, "collect");
    for (const ref of step.askKeys) visit(ref, "ask");
    forEachNext(step, (next) => {
      if (next.kind === "step" || next.kind === "end") for (const ref of next.clear) visit(ref, "clear");
    });
  }
  forEachPred(flow, (pred) => {
    for (const ref of pred.fields) visit(ref, "a condition");
  });
}

/** The JSON predicates of an agent's own instructions and its idle speaker's. */
export function forEachAgentPred(agent: AgentModel, visit: (pred: PredModel) => void): void {
  for (const p of agent.instructionPreds) visit(p);
}

/** The step ids of a flow. */
export function stepIds(flow: FlowModel): string[] {
  const out: string[] = [];
  for (const s of flow.steps) if (s.id) out.push(s.id.text);
  return out;
}

/** The symbol id of the step of `flow` with this id (the first, when ids repeat). */
export function stepIdIn(flow: FlowModel, name: string): string | undefined {
  for (const s of flow.steps) if (s.id?.text === name) return s.symbolId;
  return undefined;
}
