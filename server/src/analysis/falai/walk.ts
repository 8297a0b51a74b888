// What a flow names, walked for every check and output that needs it: jumps (`Next`s), predicates and
// field names. Visitors rather than lists: a file may hold hundreds of flows, and these run for each.
import type { AgentModel, FlowModel, NextModel, PredModel, StepModel, Str } from "./model";

// The walks take an optional `ctx` handed to `visit`, so a hot caller can pass a module function and its
// state instead of a closure made per call (util/shapes.ts).

/** Every `Next` of a step: `then`, `else`, `onFail` and each branch's `then`. */
export function forEachNext<C = undefined>(step: StepModel, visit: (next: NextModel, ctx: C) => void, ctx?: C): void {
  if (step.then) visit(step.then, ctx!);
  if (step.else) visit(step.else, ctx!);
  if (step.onFail) visit(step.onFail, ctx!);
  for (const b of step.branches) if (b.then) visit(b.then, ctx!);
}

/** Every JSON predicate of a flow: trigger `if`s, `while`, instructions, `if` steps, branch `if`s. */
export function forEachPred<C = undefined>(flow: FlowModel, visit: (pred: PredModel, ctx: C) => void, ctx?: C): void {
  for (const t of flow.triggers) if (t.if) visit(t.if, ctx!);
  if (flow.while) visit(flow.while, ctx!);
  for (const p of flow.instructionPreds) visit(p, ctx!);
  for (const step of flow.steps) {
    if (step.if) visit(step.if, ctx!);
    for (const b of step.branches) if (b.if) visit(b.if, ctx!);
    for (const p of step.instructionPreds) visit(p, ctx!);
  }
}

/** Every place a flow names a field: `clearOnStart`, `collect`, a talk step's `ask` keys, `clear` lists,
 *  and the `equals` / `known` of its predicates. */
export function forEachFieldRef(flow: FlowModel, visitor: FieldRefVisitor): void {
  for (const ref of flow.clearOnStart) visitor.fieldRef(ref, "clearOnStart");
  for (const step of flow.steps) {
    for (const ref of step.collect) visitor.fieldRef(ref, "collect");
    for (const ref of step.askKeys) visitor.fieldRef(ref, "ask");
    forEachNext(step, clearedFieldRefs, visitor);
  }
  forEachPred(flow, predFieldRefs, visitor);
}

/** What `forEachFieldRef` reports each field name to (a method: util/shapes.ts). */
export interface FieldRefVisitor {
  fieldRef(ref: Str, via: string): void;
}

function clearedFieldRefs(next: NextModel, visitor: FieldRefVisitor): void {
  if (next.kind === "step" || next.kind === "end") for (const ref of next.clear) visitor.fieldRef(ref, "clear");
}

function predFieldRefs(pred: PredModel, visitor: FieldRefVisitor): void {
  for (const ref of pred.fields) visitor.fieldRef(ref, "a condition");
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
