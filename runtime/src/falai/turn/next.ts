// Where a run goes after a step: the next step in the list, a step id, `{ step, clear }`, `'end'` (onEnd decides),
// or `{ flow }` (this run ends, another starts one hop deeper).
import type { Flow, Next, Run, Step } from "../types";
import { renderTemplate } from "../template";
import { isTalk, stepKind } from "../steps";
import { startRun } from "./starts";
import type { TurnState } from "./state";
import type { FlowExit } from "./visited";

/** The label a line's `next` carries for a target: a step id, `end`, or `flow:<id>`. */
export function nextLabel(s: TurnState, run: Run, target: Next<any>): string {
  if (typeof target === "string") return target;
  if ("step" in target) return target.step;
  return `flow:${renderTemplate(target.flow, s.scope(run))}`;
}

/** The step a target leads to within the flow (undefined for `end`, a chain, or a missing step). */
export function targetStep(flow: Flow<any, any>, from: Step<any, any>, target: Next<any> | undefined): Step<any, any> | undefined {
  if (target === undefined) return flow.steps[flow.steps.indexOf(from) + 1];
  if (typeof target === "string") return target === "end" ? undefined : flow.steps.find((s) => s.id === target);
  if ("step" in target) return flow.steps.find((s) => s.id === target.step);
  return undefined;
}

/** Moves the run along `target` (undefined: the next step in order), which is the step's `exit` (its `then`
 *  unless the caller says otherwise). */
export function follow(s: TurnState, run: Run, target: Next<any> | undefined, exit: FlowExit = "then"): void {
  const flow = s.flowOf(run)!;
  const from = s.stepOf(run);
  if (from) s.visited?.exit(flow.id, from.id, exit);
  if (target === undefined) {
    const next = from ? flow.steps[flow.steps.indexOf(from) + 1] : flow.steps[0];
    if (next) s.enter(run, next.id);
    else finish(s, run, flow);
    return;
  }
  if (typeof target === "string" || "step" in target) {
    const id = typeof target === "string" ? target : target.step;
    if (id === "end") return finish(s, run, flow);
    if (typeof target === "object" && target.clear) {
      for (const field of target.clear) {
        delete s.session.data[field];
        delete run.asked[field];
      }
    }
    if (!flow.steps.some((st) => st.id === id)) return s.endEarly(run, "skipped", "step-gone", id);
    s.enter(run, id);
    return;
  }
  chain(s, run, target);
}

/** `{ flow, input }`: this run ends (reason 'flow') and the other flow starts in the same turn, one hop deeper. */
function chain(s: TurnState, run: Run, target: { flow: string; input?: unknown }): void {
  const flowId = renderTemplate(target.flow, s.scope(run));
  const key = run.stepId === null ? run.id : s.keyOf(run);
  const flow = s.engine.flowById.get(flowId);
  s.end(run, "flow");
  if (!flow) {
    s.skip(flowId, run.anchor, key, "flow-gone");
    return;
  }
  const child = startRun(s, flow, { kind: "flow", key, input: target.input ?? run.input, hop: run.hop + 1 });
  // A run that took the floor in Ingest hands it to its child (the message is routed to it).
  if (child && s.floorFromIngest === run) s.floorFromIngest = child;
}

/** Past the last step (or `then: 'end'`): onEnd decides. */
function finish(s: TurnState, run: Run, flow: Flow<any, any>): void {
  const onEnd = flow.onEnd ?? "end";
  if (onEnd === "reset") {
    const key = run.stepId === null ? run.id : s.keyOf(run);
    s.end(run, "reset");
    startRun(s, flow, { kind: "flow", key, input: run.input, hop: run.hop + 1, keepData: true });
    return;
  }
  if (onEnd === "stay") {
    const talked = [...run.outcomes].reverse().find((o) => (o.kind === "prompt" || o.kind === "collect") && o.stepId !== undefined)?.stepId;
    const talk = talked ?? [...flow.steps].reverse().find((st) => isTalk(stepKind(st)))?.id;
    if (talk !== undefined) {
      run.stepId = talk;
      run.staying = true;
      run.visits[talk] ??= 1;
      delete run.waiting;
      s.fresh.delete(run.id);
      const other = s.asking();
      if (other && other !== run) {
        run.status = "suspended";
        run.suspendedAt = s.at;
      } else {
        run.status = "asking";
        // A run that finished on a message nothing has answered yet answers it now.
        if (s.kind === "message" && s.answered.size === 0) s.pendingStay.add(run.id);
      }
      return;
    }
  }
  s.end(run, "end");
}
