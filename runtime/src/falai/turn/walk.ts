// The Run phase: every run that can move walks its steps until one stops it (it asks, parks, or ends).
import type { DoStep, IfStep, Run, SayStep, Step, WaitEventStep, WaitStep } from "../types";
import { parseDuration } from "../duration";
import { renderTemplate } from "../template";
import { sayOnceKeyOf, waitKeyOf } from "../keys";
import { isTalk, stepKind } from "../steps";
import { follow, nextLabel, targetStep } from "./next";
import { customerWroteSince, park, premiseHolds, snap } from "./starts";
import { runAction } from "./action";
import { resumeTalk, reachTalk } from "./talk";
import type { TurnState } from "./state";

export const STEP_LIMIT = 50;
/** A wait this short, right before a message, rides on that message as `afterMs`. */
export const INLINE_WAIT_MS = 10_000;
const EVENT_WAIT_MS = 30 * 86_400_000;

/** Moves every run that can move, until none can (children of `{ flow }` moves join as they start). */
export async function moveRuns(s: TurnState): Promise<void> {
  for (let guard = 0; guard < 10_000; guard++) {
    const run = s.session.runs.find((r) => r.status === "running" || (r.status === "asking" && (r === s.floor || s.pendingStay.has(r.id))));
    if (!run) return;
    if (run.status === "asking") {
      if (run === s.floor) s.floor = undefined;
      s.pendingStay.delete(run.id);
      await resumeAsking(s, run);
    } else {
      await walk(s, run);
    }
  }
  throw new Error("falai runtime: runs kept moving without stopping (a bug in the runtime)");
}

/** Before a run moves: its flow and step still exist, and its premise still holds. */
function mayMove(s: TurnState, run: Run): boolean {
  const flow = s.flowOf(run);
  if (!flow) {
    s.endEarly(run, "skipped", "flow-gone", run.flowId);
    return false;
  }
  if (run.stepId !== null && !s.stepOf(run)) {
    s.endEarly(run, "skipped", "step-gone", run.stepId);
    return false;
  }
  if (!premiseHolds(s, run, flow)) {
    s.endEarly(run, "skipped", "premise-changed");
    return false;
  }
  if (run.trigger.kind === "silence" && s.kind === "wake" && customerWroteSince(s, flow, run.startedAt)) {
    s.endEarly(run, "skipped", "customer-replied");
    return false;
  }
  return true;
}

async function resumeAsking(s: TurnState, run: Run): Promise<void> {
  if (!mayMove(s, run)) return;
  if (await resumeTalk(s, run)) await walk(s, run, true);
}

/** Walks one run forward from its current step. */
async function walk(s: TurnState, run: Run, checked = false): Promise<void> {
  if (!checked && !mayMove(s, run)) return;
  if (run.stepId === null) follow(s, run, undefined);
  for (let moved = 0; s.isLive(run) && run.status === "running"; moved++) {
    if (moved >= STEP_LIMIT) return s.endEarly(run, "failed", "step-loop");
    const step = s.stepOf(run);
    if (!step) return s.endEarly(run, "skipped", "step-gone", run.stepId ?? undefined);
    const fresh = s.fresh.delete(run.id);
    await act(s, run, step, fresh);
  }
}

async function act(s: TurnState, run: Run, step: Step<any, any>, fresh: boolean): Promise<void> {
  const kind = stepKind(step);
  if (isTalk(kind)) return reachTalk(s, run, step, fresh);
  if (kind === "say") return say(s, run, step as Step<any, any> & SayStep);
  if (kind === "do") return runAction(s, run, step as Step<any, any> & DoStep);
  if (kind === "wait") return wait(s, run, step as Step<any, any> & WaitStep);
  if (kind === "waitEvent") return waitEvent(s, run, step as Step<any, any> & WaitEventStep);
  return ifStep(s, run, step as Step<any, any> & IfStep);
}

function say(s: TurnState, run: Run, step: Step<any, any> & SayStep): void {
  const next = step.then === undefined ? undefined : nextLabel(s, run, step.then);
  if (s.silenced !== undefined) return s.endEarly(run, "skipped", "silenced", s.silenced);
  const claim = sayOnceKeyOf(run.flowId, step.id, s.session.id);
  if (step.once && s.session.claims[claim]) {
    s.line(run, "say", "skipped", { code: "already-sent", ...(next !== undefined ? { next } : {}) });
    return follow(s, run, step.then);
  }
  if (step.once) s.session.claims[claim] = { at: s.at };
  s.messages.push({
    text: renderTemplate(step.say, s.scope(run)), kind: "verbatim", ...(step.media ? { media: { slug: step.media.slug } } : {}),
    afterMs: s.takeAfterMs(run), key: s.keyOf(run), runId: run.id, stepId: step.id,
  });
  s.spoke(run);
  s.line(run, "say", "ok", next !== undefined ? { next } : {});
  follow(s, run, step.then);
}

function wait(s: TurnState, run: Run, step: Step<any, any> & WaitStep): void {
  const ms = parseDuration(step.wait, `step "${step.id}" wait`);
  const flow = s.flowOf(run)!;
  const after = targetStep(flow, step, step.then);
  if (ms <= INLINE_WAIT_MS && after && (isTalk(stepKind(after)) || stepKind(after) === "say") && (step.then === undefined || typeof step.then !== "object" || "step" in step.then)) {
    s.afterMs.set(run.id, (s.afterMs.get(run.id) ?? 0) + ms);
    s.line(run, "wait", "ok", { code: "inline-delay", detail: `${ms}ms`, ...(step.then !== undefined ? { next: nextLabel(s, run, step.then) } : {}) });
    return follow(s, run, step.then);
  }
  let atMs = s.nowMs + ms;
  if (step.businessHours) atMs = snap(s, atMs);
  park(s, run, waitKeyOf(run.id, step.id, atMs), atMs);
  // The testing document pins this line to exactly { runId, flowId, stepId, key, kind, status, until, at }.
  s.line(run, "wait", "waiting", { until: new Date(atMs).toISOString() });
}

function waitEvent(s: TurnState, run: Run, step: Step<any, any> & WaitEventStep): void {
  const atMs = s.nowMs + (step.wait.upTo !== undefined ? parseDuration(step.wait.upTo) : EVENT_WAIT_MS);
  park(s, run, waitKeyOf(run.id, step.id, atMs), atMs, step.wait.event);
  s.line(run, "wait", "waiting", { code: "awaiting-event", detail: step.wait.event, until: new Date(atMs).toISOString() });
}

function ifStep(s: TurnState, run: Run, step: Step<any, any> & IfStep): void {
  const holds = s.holds(step.if, run);
  const target = holds ? step.then : (step.else ?? "end");
  s.line(run, "if", "ok", target !== undefined ? { next: nextLabel(s, run, target) } : {});
  follow(s, run, target, holds ? "then" : "else");
}
