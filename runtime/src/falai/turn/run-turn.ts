// One turn: Load, Ingest, Understand + Decide, Run, Speak, Settle, Return (docs: "the turn pipeline"). The clock is
// read once; the input session is copied, never mutated; the only I/O is the provider and the host's code.
import type { Session, TurnInput, TurnResult } from "../types";
import { assertSession, freshSession } from "../session";
import { InvalidSessionError } from "../errors";
import { ingest, type Ignored } from "./ingest";
import { decide } from "./decide";
import { moveRuns } from "./walk";
import { speakPhase } from "./speak";
import { armSilence } from "./silence";
import { TurnState, type Data, type DeltaSink, type Engine, type LooseInput } from "./state";
import { keepVisited } from "./visited";

function now(engine: Engine): Date {
  const t = engine.clock();
  if (!(t instanceof Date) || !Number.isFinite(t.getTime())) throw new TypeError(`The agent's clock returned ${String(t)}, not a Date.`);
  return new Date(t.getTime());
}

/** A deep copy of the stored session (the input is never mutated); a blob that cannot be copied is no stored session. */
function copyOf(session: Session<Data>): Session<Data> {
  try {
    return structuredClone(session);
  } catch (error) {
    throw new InvalidSessionError(session.id, `it cannot be copied (${error instanceof Error ? error.message : String(error)}); pass the JSON the store returned`);
  }
}

function ignoredResult(s: TurnState, ignored: Ignored, session: Session<Data>): TurnResult<Data> {
  const line = s.looseLine("wait", "skipped", { code: ignored.code, key: ignored.key });
  return { session, changed: false, messages: [], schedule: [], outcomes: [line], started: [], ended: [], skipped: [], llmCalls: 0 };
}

export async function runTurn(engine: Engine, input: TurnInput<any, any>, onDelta?: DeltaSink, callSite?: Error): Promise<TurnResult<Data>> {
  const at = now(engine);
  const session: Session<Data> = input.session ? copyOf(assertSession<Data>(input.session, input.sessionId)) : freshSession<Data>(input.sessionId);
  const s = new TurnState(engine, input as LooseInput, session, at, onDelta);
  s.callSite = callSite;
  const previousAssistantAt = session.lastAssistantAt;

  const ignored = ingest(s);
  if (ignored) return ignoredResult(s, ignored, JSON.parse(s.before) as Session<Data>);
  await decide(s);

  // Run: whoever is not asking and was suspended last asks again; on a message it is the one answering.
  const resumed = s.resumeSuspended();
  if (resumed && s.kind === "message" && !s.floor && !s.floorFromIngest) s.floor = resumed;
  await moveRuns(s);
  if (s.kind === "message" && !s.asking() && !s.speaker && s.answered.size === 0) {
    s.floor = s.resumeSuspended();
    await moveRuns(s);
  }

  await speakPhase(s);
  await moveRuns(s); // the speaker's run goes on past its step; talk steps it reaches wait for the next message

  s.resumeSuspended();
  armSilence(s, previousAssistantAt);

  const changed = JSON.stringify(s.session) !== s.before || s.messages.length > 0 || s.schedule.length > 0 || s.outcomes.length > 0 || s.skipped.length > 0;
  const result: TurnResult<Data> = {
    session: s.session, changed, messages: s.messages, schedule: s.schedule, outcomes: s.outcomes,
    started: s.started, ended: s.ended, skipped: s.skipped, llmCalls: s.llmCalls, ...(s.usage ? { usage: s.usage } : {}),
  };
  keepVisited(result, s.visited);
  return result;
}
