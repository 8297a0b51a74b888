// Talk steps (`prompt` / `collect`) as the Run phase reaches them: skipped when their fields are known, asking
// when they must speak (the turn's one speaker, or a fixed question word for word), and resumed by a message.
import type { Run, Step, TalkStep } from "../types";
import { isKnown } from "../coerce";
import { renderTemplate } from "../template";
import { stepKind } from "../steps";
import { follow, nextLabel } from "./next";
import { outcomeKind, type TurnState } from "./state";

export const DEFAULT_MAX_ASKS = 3;

type Talk = Step<any, any> & TalkStep<any, any>;
const collectOf = (step: Talk): string[] => (step.collect as string[] | undefined) ?? [];
const talkKind = (step: Talk) => outcomeKind(stepKind(step));

/** The step's fields still to ask: collect − known − those asked `maxAsks` times, in collect order. */
export function pendingOf(s: TurnState, run: Run, step: Talk): string[] {
  const max = step.maxAsks ?? DEFAULT_MAX_ASKS;
  return collectOf(step).filter((f) => !isKnown(s.session.data[f]) && (run.asked[f] ?? 0) < max);
}

export function maxedOf(s: TurnState, run: Run, step: Talk): string[] {
  const max = step.maxAsks ?? DEFAULT_MAX_ASKS;
  return collectOf(step).filter((f) => !isKnown(s.session.data[f]) && (run.asked[f] ?? 0) >= max);
}

/** The fixed question's first ask is due: every field still unknown and none asked yet (never on a staying run). */
function questionDue(s: TurnState, run: Run, step: Talk): boolean {
  const collect = collectOf(step);
  return step.question !== undefined && !run.staying && collect.length > 0 && collect.every((f) => !isKnown(s.session.data[f]) && !run.asked[f]);
}

/** The fixed question goes out word for word, as the step's ask. */
export function sendQuestion(s: TurnState, run: Run, step: Talk): void {
  s.messages.push({ text: renderTemplate(step.question!, s.scope(run)), kind: "verbatim", afterMs: s.takeAfterMs(run), key: s.keyOf(run), runId: run.id, stepId: step.id });
  for (const f of collectOf(step)) run.asked[f] = (run.asked[f] ?? 0) + 1;
  s.spoke(run);
  s.line(run, "collect", "ok", { code: "asked-fixed" });
  run.status = "asking";
}

/** Fields filled (or given up at maxAsks): the step reports it and the run follows `then`. */
function complete(s: TurnState, run: Run, step: Talk): void {
  const maxed = maxedOf(s, run, step);
  for (const field of maxed) s.line(run, "collect", "skipped", { code: "max-asks", detail: field });
  if (!maxed.length) s.line(run, talkKind(step), "ok", step.then !== undefined ? { next: nextLabel(s, run, step.then) } : {});
  follow(s, run, step.then);
}

/** The step must speak: it takes the floor and is this turn's speaker, or waits for the next message. */
function needsSpeak(s: TurnState, run: Run, step: Talk): void {
  s.suspendOthers(run);
  run.status = "asking";
  if (questionDue(s, run, step)) {
    if (s.kind !== "message" || s.aiSpoke || s.understanding.asks === false) return sendQuestion(s, run, step);
    s.speaker = { run, mode: "answer-then-question" };
    return;
  }
  if (!s.aiSpoke) s.speaker = { run, mode: "talk" };
}

/** The Run phase reached this talk step: entered now (`fresh`), or re-run by a retry wake. */
export function reachTalk(s: TurnState, run: Run, step: Step<any, any>, fresh: boolean): void {
  const talk = step as Talk;
  const known = collectOf(talk).length > 0 && pendingOf(s, run, talk).length === 0;
  if (fresh && known) {
    s.line(run, "collect", "skipped", { code: "already-known", ...(talk.then !== undefined ? { next: nextLabel(s, run, talk.then) } : {}) });
    return follow(s, run, talk.then);
  }
  if (!fresh && known) return complete(s, run, talk);
  if (s.silenced !== undefined) {
    if (fresh) return s.endEarly(run, "skipped", "silenced", s.silenced);
    run.status = "asking"; // a retry under silence waits, asking, for the gate to open
    return;
  }
  needsSpeak(s, run, talk);
}

/** A message arrived for the asking run. True when the run moved on and keeps walking. */
export function resumeTalk(s: TurnState, run: Run): boolean {
  const step = s.stepOf(run) as Talk;
  if (run.staying) {
    if (s.silenced !== undefined) return false;
    run.visits[step.id] = (run.visits[step.id] ?? 0) + 1; // each answer of a staying step is a new visit
    s.suspendOthers(run);
    if (!s.aiSpoke) s.speaker = { run, mode: "talk" };
    return false;
  }
  if (collectOf(step).length > 0 && pendingOf(s, run, step).length === 0) {
    run.status = "running";
    complete(s, run, step);
    return s.moving(run);
  }
  if (s.silenced !== undefined) return false; // stays asking, silently
  needsSpeak(s, run, step);
  return false;
}
