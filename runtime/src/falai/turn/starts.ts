// Starting a run: the one order every start goes through (trigger `if`, claim, hop cap, one live run per flow
// and anchor), the claim it writes, and the premise a run re-checks before it moves.
import type { Flow, Repeat, Run, Trigger, TriggerKind } from "../types";
import { afterKeyOf, dedupeKeyOf, runIdOf } from "../keys";
import { parseDuration } from "../duration";
import { ALWAYS_CLAIMS_CAP } from "../session";
import type { TurnState } from "./state";

export const HOP_LIMIT = 5;

export interface StartSpec {
  kind: TriggerKind;
  key: string;
  trigger?: Trigger<any, any>;
  input?: unknown;
  hop: number;
  /** `onEnd: 'reset'` keeps the data. */
  keepData?: boolean;
}

const defaultRepeat = (kind: TriggerKind): Repeat => (kind === "message" || kind === "mention" || kind === "silence" ? "once" : "always");

function anchorOf(s: TurnState, flow: Flow<any, any>): string {
  const name = flow.anchor ?? "session";
  return name === "session" ? s.session.id : (s.input.anchors?.[name]?.key ?? s.session.id);
}

function repeatOf(spec: StartSpec): Repeat {
  return spec.trigger?.repeat ?? defaultRepeat(spec.kind);
}

function draftRun(s: TurnState, flow: Flow<any, any>, spec: StartSpec, anchor: string, dedupeKey: string): Run {
  return {
    id: runIdOf(flow.id, spec.key), flowId: flow.id, anchor, dedupeKey, stepId: null, status: "running",
    trigger: { kind: spec.kind, key: spec.key, ...(spec.input !== undefined ? { payload: spec.input } : {}) },
    ...(spec.input !== undefined ? { input: spec.input } : {}),
    hop: spec.hop, startedAt: s.at, asked: {}, visits: {}, outcomes: [],
  };
}

export type StartCheck = { ok: true; anchor: string; dedupeKey: string; replaces?: Run } | { ok: false; anchor: string; code?: "already-claimed" | "cooldown" | "hop-limit" | "already-running" };

/** The start order, without writing anything. `code` absent: the trigger's `if` was false (nothing to report). */
export function checkStart(s: TurnState, flow: Flow<any, any>, spec: StartSpec): StartCheck {
  const anchor = anchorOf(s, flow);
  const repeat = repeatOf(spec);
  const dedupeKey = dedupeKeyOf(flow.id, anchor, repeat === "always" ? spec.key : "");
  if (spec.trigger && !s.holds(spec.trigger.if, draftRun(s, flow, spec, anchor, dedupeKey), spec.input)) return { ok: false, anchor };
  const held = s.session.claims[dedupeKey]?.at ?? s.claims.held[dedupeKey];
  if (held !== undefined) {
    if (typeof repeat !== "object") return { ok: false, anchor, code: "already-claimed" };
    if (Date.parse(held) + parseDuration(repeat.cooldown) > s.nowMs) return { ok: false, anchor, code: "cooldown" };
  }
  if (spec.hop >= HOP_LIMIT) return { ok: false, anchor, code: "hop-limit" };
  const live = s.session.runs.find((r) => r.flowId === flow.id && r.anchor === anchor);
  if (live && !(live.stepId === null && live.status === "waiting")) return { ok: false, anchor, code: "already-running" };
  if (!live && s.claims.active.includes(`${flow.id}:${anchor}`)) return { ok: false, anchor, code: "already-running" };
  return { ok: true, anchor, dedupeKey, ...(live ? { replaces: live } : {}) };
}

/** Starts a run (stepId null, running) or logs why it did not; the run enters its first step when it moves. */
export function startRun(s: TurnState, flow: Flow<any, any>, spec: StartSpec): Run | undefined {
  const check = checkStart(s, flow, spec);
  if (!check.ok) {
    if (check.code) s.skip(flow.id, check.anchor, spec.key, check.code);
    return undefined;
  }
  if (check.replaces) s.end(check.replaces, "replaced");
  const run = draftRun(s, flow, spec, check.anchor, check.dedupeKey);
  s.session.claims[check.dedupeKey] = { at: s.at };
  if (repeatOf(spec) === "always") pruneAlwaysClaims(s, flow.id, check.anchor);
  if (!spec.keepData) for (const field of flow.clearOnStart ?? []) delete s.session.data[field];
  s.session.runs.push(run);
  s.started.push({ runId: run.id, flowId: run.flowId, anchor: run.anchor, dedupeKey: run.dedupeKey });
  const after = spec.trigger && "event" in spec.trigger ? spec.trigger.after : undefined;
  if (after !== undefined) {
    let atMs = s.nowMs + parseDuration(after);
    if (spec.trigger && "event" in spec.trigger && spec.trigger.businessHours) atMs = snap(s, atMs);
    park(s, run, afterKeyOf(run.id, atMs), atMs);
    s.line(run, "wait", "waiting", { code: "awaiting-trigger", until: new Date(atMs).toISOString() });
  }
  return run;
}

function pruneAlwaysClaims(s: TurnState, flowId: string, anchor: string): void {
  const prefix = `${flowId}:${anchor}:`;
  const always = Object.entries(s.session.claims).filter(([k]) => k.startsWith(prefix) && k.length > prefix.length);
  if (always.length <= ALWAYS_CLAIMS_CAP) return;
  always.sort((a, b) => a[1].at.localeCompare(b[1].at));
  for (const [k] of always.slice(0, always.length - ALWAYS_CLAIMS_CAP)) delete s.session.claims[k];
}

/** Parks a run on a timer wake and schedules it. */
export function park(s: TurnState, run: Run, key: string, atMs: number, event?: string): void {
  run.status = "waiting";
  run.waiting = { kind: event === undefined ? "timer" : "event", key, until: new Date(atMs).toISOString(), setAt: s.at, ...(event !== undefined ? { event } : {}) };
  s.schedule.push({ key, at: new Date(atMs) });
}

/** Moves a time forward to working hours with the agent's `businessHours`, never backward. */
export function snap(s: TurnState, atMs: number): number {
  const fn = s.engine.businessHours;
  if (!fn) return atMs;
  const moved = fn(new Date(atMs), { context: s.context }).getTime();
  return Number.isFinite(moved) && moved > atMs ? moved : atMs;
}

/** The run's premise: `while`, else any trigger of the kind that started it; runs from `start` or a chain always hold. */
export function premiseHolds(s: TurnState, run: Run, flow: Flow<any, any>): boolean {
  if (flow.while !== undefined) return s.holds(flow.while, run);
  const kind = run.trigger.kind;
  if (kind === "start" || kind === "flow") return true;
  const same = (flow.on ?? []).filter((t) => kind in t);
  return same.length === 0 || same.some((t) => t.if === undefined || s.holds(t.if, run));
}

/** The customer wrote after `since` (a message here, or anywhere for the flow's anchor). */
export function customerWroteSince(s: TurnState, flow: Flow<any, any> | undefined, since: string): boolean {
  const last = s.session.lastUserAt;
  if (last !== undefined && last > since) return true;
  const anchorName = flow?.anchor;
  const inbound = anchorName && anchorName !== "session" ? s.input.anchors?.[anchorName]?.lastInboundAt : undefined;
  return inbound !== undefined && inbound > since;
}
