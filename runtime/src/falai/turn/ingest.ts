// Phase 2, Ingest: record the input, resolve the waits it answers, honour a wake, start event and manual runs.
// Returns the code of an input that is ignored (nothing to save, nothing to send).
import type { Run, Step, StepOutcomeCode, WaitStep } from "../types";
import { INPUTS_CAP } from "../session";
import { parseSilenceKey } from "../keys";
import { stepKind } from "../steps";
import { follow, nextLabel } from "./next";
import { customerWroteSince, startRun } from "./starts";
import type { TurnState } from "./state";

/** The run moves on from a resolved wait; the first to do so takes the floor (or hands it to the flow it chains to). */
function resume(s: TurnState, run: Run, target: Parameters<typeof follow>[2], exit: Parameters<typeof follow>[3]): void {
  s.floorFromIngest ??= run;
  follow(s, run, target, exit);
  if (s.floorFromIngest === run && !s.moving(run)) s.floorFromIngest = undefined;
}

export interface Ignored {
  code: StepOutcomeCode;
  key: string;
}

/** Every run parked on a timer `wait` with `else` takes it (a matching `if` branch first): the customer replied. */
function resolveReplies(s: TurnState): void {
  for (const run of [...s.session.runs]) {
    if (run.status !== "waiting" || run.waiting?.kind !== "timer") continue;
    const step = s.stepOf(run);
    if (!step || stepKind(step) !== "wait") continue;
    const wait = step as Step<any, any> & WaitStep<any, any>;
    if (wait.else === undefined) continue;
    const index = wait.branches?.findIndex((b) => b.if !== undefined && s.holds(b.if, run)) ?? -1;
    const target = index >= 0 ? wait.branches![index]!.then : wait.else;
    s.line(run, "wait", "ok", { code: "replied", next: nextLabel(s, run, target), key: false });
    resume(s, run, target, index >= 0 ? { branch: index } : "else");
  }
}

function wakeRun(s: TurnState, run: Run): void {
  const setAt = run.waiting?.setAt ?? s.at;
  delete run.waiting;
  run.status = "running";
  const step = s.stepOf(run);
  if (step && stepKind(step) === "wait") {
    const wait = step as Step<any, any> & WaitStep<any, any>;
    const replied = wait.else !== undefined && customerWroteSince(s, s.flowOf(run), setAt);
    const target = replied ? wait.else : wait.then;
    s.line(run, "wait", "ok", { code: replied ? "replied" : "no-reply", ...(target !== undefined ? { next: nextLabel(s, run, target) } : {}), key: false });
    return resume(s, run, target, replied ? "else" : "then");
  } else if (step && stepKind(step) === "waitEvent") {
    const target = (step as { else?: WaitStep["else"] }).else ?? "end";
    s.line(run, "wait", "ok", { code: "no-event", next: nextLabel(s, run, target), key: false });
    return resume(s, run, target, "else");
  }
  // Otherwise: the trigger's `after` (no step yet), a deferred action or a speak retry; the run moves on as it is.
  if (s.moving(run)) s.floorFromIngest = run;
}

function wakeSilence(s: TurnState, key: string): Ignored | undefined {
  const parsed = parseSilenceKey(key)!;
  const flow = s.engine.flows.find((f) => parsed.rest === `${f.id}:${s.session.id}`);
  const trigger = flow?.on?.find((t) => "silence" in t);
  if (!flow || !trigger) return { code: "flow-gone", key };
  const last = s.session.lastAssistantAt;
  if (last === undefined || Date.parse(last) !== parsed.ms || customerWroteSince(s, flow, last)) return { code: "silence-broken", key };
  const run = startRun(s, flow, { kind: "silence", key: String(parsed.ms), trigger, hop: 0 });
  if (run) s.floorFromIngest = run;
  return undefined;
}

export function ingest(s: TurnState): Ignored | undefined {
  const input = s.input;
  switch (s.kind) {
    case "message": {
      if (input.id !== undefined) {
        if (s.session.inputs.includes(input.id)) return { code: "duplicate-input", key: input.id };
        s.session.inputs.push(input.id);
        if (s.session.inputs.length > INPUTS_CAP) s.session.inputs.splice(0, s.session.inputs.length - INPUTS_CAP);
      }
      s.session.lastUserAt = input.at ?? s.at;
      resolveReplies(s);
      return undefined;
    }
    case "wake": {
      const key = input.wake!;
      if (!input.session) return { code: "no-session", key };
      if (key.startsWith("silence:") && parseSilenceKey(key)) return wakeSilence(s, key);
      const run = s.session.runs.find((r) => r.status === "waiting" && r.waiting?.key === key);
      if (!run) return { code: "stale-wake", key };
      wakeRun(s, run);
      return undefined;
    }
    case "event": {
      const name = input.event!;
      const direction = s.engine.events[name]?.direction;
      if (direction === "inbound") {
        s.session.lastUserAt = s.at;
        resolveReplies(s);
      } else if (direction === "outbound") {
        s.session.lastAssistantAt = s.at;
        s.wentOut = true;
      }
      for (const run of [...s.session.runs]) {
        if (run.status !== "waiting" || run.waiting?.kind !== "event" || run.waiting.event !== name) continue;
        delete run.waiting;
        run.status = "running";
        const step = s.stepOf(run)!;
        s.line(run, "wait", "ok", { code: "event-arrived", ...(step.then !== undefined ? { next: nextLabel(s, run, step.then) } : {}), key: false });
        resume(s, run, step.then, "then");
      }
      for (const flow of s.engine.flows) {
        for (const trigger of flow.on ?? []) {
          if ("event" in trigger && trigger.event === name) startRun(s, flow, { kind: "event", key: input.key!, trigger, input: input.payload, hop: input.hop ?? 0 });
        }
      }
      return undefined;
    }
    case "start": {
      const start = input.start!;
      const flow = s.engine.flowById.get(start.flow);
      if (!flow) {
        s.skip(start.flow, s.session.id, start.key, "flow-gone");
        return undefined;
      }
      const run = startRun(s, flow, { kind: "start", key: start.key, input: start.input, hop: start.hop ?? 0 });
      if (run) s.floorFromIngest = run;
      return undefined;
    }
  }
}
