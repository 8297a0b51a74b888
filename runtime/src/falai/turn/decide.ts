// Phase 4, Decide: apply the judgement in a fixed order — routing, mention runs, the routed run, field values,
// then the first branch of the asking step that holds.
import type { Flow, Run, Step, TalkStep } from "../types";
import { branchKeyOf } from "../keys";
import { isTalk, stepKind } from "../steps";
import { follow, nextLabel } from "./next";
import { startRun } from "./starts";
import { writeFields } from "./fields";
import { messageTrigger, planUnderstanding, understand } from "./understand";
import { outcomeKind, type TurnState } from "./state";

/** With a run asking, another flow takes the floor only at this score or more… */
export const ROUTE_MIN_SCORE = 40;
/** …and this much above the asking flow's score. */
export const ROUTE_MARGIN = 15;

function bestScored(flows: Flow<any, any>[], scores: Record<string, number>, min: number): Flow<any, any> | undefined {
  let best: Flow<any, any> | undefined;
  for (const f of flows) {
    const score = scores[f.id] ?? 0;
    if (score >= min && (!best || score > (scores[best.id] ?? 0))) best = f;
  }
  return best;
}

export async function decide(s: TurnState): Promise<void> {
  if (s.kind !== "message") return;
  const plan = planUnderstanding(s);
  if (plan.needed && (s.silenced === undefined || s.understandWhileSilenced)) s.understanding = await understand(s, plan);
  const u = s.understanding;
  const { asker, eligible, catchAll, scored } = plan.routing;

  // 1. Routing (skipped when a run took the floor in Ingest).
  let winner: Flow<any, any> | undefined;
  if (!s.floorFromIngest) {
    const scores = u.flows ?? {};
    if (asker) {
      winner = bestScored(eligible, scores, Math.max(ROUTE_MIN_SCORE, (scores[asker.flowId] ?? 0) + ROUTE_MARGIN));
    } else {
      winner = scored ? bestScored(eligible, scores, ROUTE_MIN_SCORE) : undefined;
      // One eligible flow, no catch-all to take a low score: it starts as is (the testing document's triage).
      winner ??= eligible.length === 1 && !catchAll ? eligible[0] : catchAll;
    }
  }

  // 2. Mention runs, in flow order (a `mention: []` trigger is a code-only detector, checked on every message).
  for (const flow of s.engine.flows) {
    const t = flow.on?.find((x) => "mention" in x);
    if (!t || !("mention" in t)) continue;
    if (t.mention.length > 0 && u.mentions?.[flow.id] !== true) continue;
    const given = u.extract?.[flow.id] ?? {};
    const keys = t.extract ? Object.keys(t.extract) : Object.keys(given);
    const values = Object.fromEntries(keys.filter((k) => given[k] !== undefined && given[k] !== null && given[k] !== "").map((k) => [k, given[k]]));
    startRun(s, flow, { kind: "mention", key: s.messageKey, trigger: t, ...(t.extract ? { input: values } : {}), hop: 0 });
  }

  // 3. The routed run starts, or its suspended run resumes, and holds the floor.
  if (winner) {
    if (asker) {
      asker.status = "suspended";
      asker.suspendedAt = s.at;
    }
    const suspended = s.session.runs.find((r) => r.flowId === winner!.id && r.status === "suspended");
    if (suspended) {
      s.suspendOthers(suspended);
      suspended.status = "asking";
      delete suspended.suspendedAt;
    } else {
      startRun(s, winner, { kind: "message", key: s.messageKey, trigger: messageTrigger(winner, winner === catchAll)!, hop: 0 });
    }
  }

  // 4. Field values, after the starts (clearOnStart never wipes what this message gave).
  writeFields(s, u.fields, new Set(plan.fields));

  // 5. The first branch of the asking step that holds.
  s.floor = s.floorFromIngest ? undefined : s.asking();
  if (s.floor) fireBranch(s, s.floor);
}

function fireBranch(s: TurnState, run: Run): void {
  const step = s.stepOf(run);
  if (!step || !isTalk(stepKind(step))) return;
  const talk = step as Step<any, any> & TalkStep<any, any>;
  const i = (talk.branches ?? []).findIndex((b, index) => {
    if (b.if !== undefined && !s.holds(b.if, run)) return false;
    return b.when === undefined || s.understanding.branches?.[branchKeyOf(run.id, step.id, index)] === true;
  });
  if (i < 0) return;
  const then = talk.branches![i]!.then;
  s.line(run, outcomeKind(stepKind(step)), "ok", { code: "branch", next: nextLabel(s, run, then) });
  run.status = "running";
  s.floor = undefined;
  follow(s, run, then, { branch: i });
}
