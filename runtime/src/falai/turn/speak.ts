// The Speak phase and what settles from it: one speaker per turn (the queued talk step, or the idle speaker),
// tool rounds inside its call, and — on failure — a retry wake or the run's end. Never throws for the provider.
import type { Flow, Run, Step, StructuredSchema, TalkStep, Tool } from "../types";
import { ProviderError, type ErrorKind } from "../errors";
import { idleKeyOf, retryKeyOf } from "../keys";
import { stepKind } from "../steps";
import { isReplayError } from "../../shared/model-calls";
import { callProvider, toolCallsOf } from "./provider-call";
import { SPEAK, idlePrompt, speakSchema, systemPrompt, talkPrompt } from "./prompts";
import { structuredOf } from "./understanding";
import { runToolRound, toolDefinition, toolsForIdle, toolsForTalk } from "./tools";
import { writeFields } from "./fields";
import { maxedOf, pendingOf, sendQuestion } from "./talk";
import { follow } from "./next";
import { snap } from "./starts";
import { outcomeKind, type TurnState } from "./state";
import type { StepOutcomeCode } from "../types";

/** Retry wakes after a failed speak call: +1m, +5m, +15m, +1h, +6h; the sixth failure ends the run. */
export const RETRY_BACKOFF_MS = [60_000, 300_000, 900_000, 3_600_000, 21_600_000] as const;

type Reply = { ok: true; text: string; values: Record<string, unknown>; data: Record<string, unknown>; calls: number } | { ok: false; error: unknown; calls: number };

/** One speak call: rounds with tools while the model calls them, then one wrap-up round without. */
async function speakCall(s: TurnState, prompt: (wrapUp: boolean) => string, schema: StructuredSchema, pending: readonly string[], tools: Tool<any, any>[], run: Run | undefined): Promise<Reply> {
  const history = [...(s.input.history ?? s.session.history ?? [])];
  const max = s.engine.maxToolLoops;
  const defs = max > 0 ? tools.map(toolDefinition) : [];
  const values: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  const system = systemPrompt(s);
  for (let round = 1, calls = 0; ; round++) {
    const withTools = defs.length > 0 && round <= max;
    calls++;
    let out;
    try {
      out = await callProvider(s, {
        system, prompt: prompt(defs.length > 0 && !withTools), history: [...history], ...(withTools ? { tools: defs } : {}),
        parameters: { schemaName: SPEAK, jsonSchema: schema }, ...(s.context !== undefined ? { context: s.context } : {}),
      }, s.onDelta);
    } catch (error) {
      if (isReplayError(error)) throw error; // a drifted replay is not a model failure: the turn rejects with it
      return { ok: false, error, calls };
    }
    const st = structuredOf(out);
    for (const f of pending) if (f in st) values[f] = st[f];
    const requested = toolCallsOf(out);
    const text = typeof st.message === "string" ? st.message : Object.keys(st).length === 0 ? out.message : "";
    if (requested && withTools) {
      await runToolRound(s, tools, requested, text, round, history, data, run);
      continue;
    }
    if (!text.trim()) return { ok: false, error: undefined, calls };
    return { ok: true, text, values, data, calls };
  }
}

/** What a failed speak call means: wait and retry (with the earliest time), or end. */
function failure(s: TurnState, error: unknown): { code: StepOutcomeCode; waitUntilMs?: number } {
  if (error === undefined) return { code: "provider-unavailable", waitUntilMs: 0 }; // an empty reply
  const p = ProviderError.from(s.engine.provider.name, error);
  const waitable: Record<ErrorKind, StepOutcomeCode | undefined> = {
    timeout: "provider-unavailable", network: "provider-unavailable", overload: "provider-unavailable", rate: "provider-unavailable",
    unknown: "provider-unavailable", aborted: "provider-unavailable", quota: p.resetAtMs !== undefined ? "provider-quota" : undefined,
    auth: undefined, entitlement: undefined, model: undefined, context: undefined, content: undefined, invalid: undefined,
  };
  const ending: Partial<Record<ErrorKind, StepOutcomeCode>> = { quota: "provider-quota", auth: "provider-auth", entitlement: "provider-auth", context: "provider-context" };
  let code = waitable[p.kind];
  if (p.shouldRetry === false) code = undefined;
  if (p.shouldRetry === true && code === undefined) code = ending[p.kind] ?? "provider-invalid";
  if (code === undefined) return { code: ending[p.kind] ?? "provider-invalid" };
  return { code, waitUntilMs: Math.max(p.retryAfterMs !== undefined ? s.nowMs + p.retryAfterMs : 0, p.resetAtMs ?? 0) };
}

/** A talk step's call failed: re-park it under a retry wake (same visit, same keys), or end the run. */
function deferTalk(s: TurnState, run: Run, step: Step<any, any>, error: unknown): void {
  const kind = outcomeKind(stepKind(step));
  const { code, waitUntilMs } = failure(s, error);
  let trailing = 0;
  for (let i = run.outcomes.length - 1; i >= 0 && run.outcomes[i]!.stepId === step.id && run.outcomes[i]!.status === "deferred"; i--) trailing++;
  if (waitUntilMs === undefined || trailing >= RETRY_BACKOFF_MS.length) {
    s.line(run, kind, "failed", { code });
    s.end(run, "failed");
    return;
  }
  const atMs = snap(s, Math.max(s.nowMs + RETRY_BACKOFF_MS[trailing]!, waitUntilMs));
  const key = retryKeyOf(run.id, step.id, run.visits[step.id] ?? 1, atMs);
  const until = new Date(atMs).toISOString();
  s.line(run, kind, "deferred", { code, until });
  run.status = "waiting";
  run.waiting = { kind: "timer", key, until, setAt: s.at };
  s.schedule.push({ key, at: new Date(atMs) });
}

async function speakTalk(s: TurnState, run: Run, answerOnly: boolean): Promise<void> {
  const flow = s.flowOf(run) as Flow<any, any>;
  const step = s.stepOf(run) as Step<any, any> & TalkStep<any, any>;
  const pending = answerOnly ? [] : pendingOf(s, run, step);
  const reply = await speakCall(s, (wrapUp) => talkPrompt(s, { run, flow, step, pending, answerOnly, wrapUp }), speakSchema(s, pending), pending, toolsForTalk(s, flow, step), run);
  if (!reply.ok) return deferTalk(s, run, step, reply.error);
  s.aiSpoke = true;
  s.messages.push({ text: reply.text, kind: "ai", afterMs: s.takeAfterMs(run), key: s.keyOf(run), runId: run.id, stepId: step.id });
  s.spoke(run);
  s.line(run, outcomeKind(stepKind(step)), "ok", { llmCalls: reply.calls });
  writeFields(s, reply.values, new Set(pending));
  Object.assign(s.session.data, reply.data);
  if (answerOnly) return sendQuestion(s, run, step);
  if (run.staying) return;
  const still = pendingOf(s, run, step);
  if (still.length) {
    for (const f of still) run.asked[f] = (run.asked[f] ?? 0) + 1;
    return;
  }
  run.status = "running";
  // Given up on at maxAsks: one line per field (the step's own ok line was the speak line above).
  for (const field of maxedOf(s, run, step)) s.line(run, "collect", "skipped", { code: "max-asks", detail: field });
  follow(s, run, step.then);
}

async function speakIdle(s: TurnState): Promise<void> {
  const idle = s.engine.idle;
  const guideline = typeof idle === "object" ? idle.prompt : "";
  const instructions = typeof idle === "object" ? idle.instructions : undefined;
  const reply = await speakCall(s, (wrapUp) => idlePrompt(s, guideline, instructions, wrapUp), speakSchema(s, []), [], toolsForIdle(s), undefined);
  if (!reply.ok) {
    s.looseLine("idle", "deferred", { code: failure(s, reply.error).code, llmCalls: reply.calls });
    return;
  }
  s.aiSpoke = true;
  const key = idleKeyOf(s.messageKey);
  s.messages.push({ text: reply.text, kind: "ai", afterMs: 0, key });
  s.spoke(undefined);
  s.looseLine("idle", "ok", { key, llmCalls: reply.calls });
  Object.assign(s.session.data, reply.data);
}

/** Phase 6: the one speaker of the turn, if any. */
export async function speakPhase(s: TurnState): Promise<void> {
  const speaker = s.speaker;
  s.speaker = undefined;
  if (speaker) {
    const { run } = speaker;
    if (!s.isLive(run) || run.status !== "asking") return;
    if (s.kind === "message" && [...s.answered].some((id) => id !== run.id)) {
      // One answer per message: another run already answered; this one asks on the next message.
      s.line(run, outcomeKind(stepKind(s.stepOf(run)!)), "skipped", { code: "another-reply" });
      return;
    }
    return speakTalk(s, run, speaker.mode === "answer-then-question");
  }
  const idle = s.engine.idle;
  if (s.kind === "message" && s.silenced === undefined && idle !== "silent" && !s.asking() && s.answered.size === 0) await speakIdle(s);
}
