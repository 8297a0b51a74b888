// pendingWakes: the wakes a saved session is waiting on, recomputed without running a turn (for a queue that lost
// its jobs). Parked runs give their wake; each silence flow gives one from lastAssistantAt, unless the customer
// wrote after it. The entries carry no `replaces`.
import type { ScheduleEntry, Session, TurnClaims } from "../types";
import { assertSession } from "../session";
import { parseDuration } from "../duration";
import { silenceKeyOf } from "../keys";
import { checkStart, customerWroteSince, snap } from "./starts";
import { TurnState, type Data, type Engine } from "./state";

export function pendingWakes(engine: Engine, args: { session: Session<Data>; context?: unknown; anchors?: Record<string, { key: string; lastInboundAt?: string }>; claims?: TurnClaims }): ScheduleEntry[] {
  const session = structuredClone(assertSession<Data>(args.session, args.session?.id));
  const s = new TurnState(engine, { sessionId: session.id, session, context: args.context, anchors: args.anchors, claims: args.claims, wake: "" } as never, session, engine.clock());
  const out: ScheduleEntry[] = [];
  for (const run of session.runs) if (run.waiting?.key && run.waiting.until) out.push({ key: run.waiting.key, at: new Date(run.waiting.until) });
  const last = session.lastAssistantAt;
  if (last === undefined) return out;
  for (const flow of engine.flows) {
    const trigger = flow.on?.find((t) => "silence" in t);
    if (!trigger || !("silence" in trigger) || customerWroteSince(s, flow, last)) continue;
    if (!checkStart(s, flow, { kind: "silence", key: String(Date.parse(last)), trigger, hop: 0 }).ok) continue;
    let atMs = Date.parse(last) + parseDuration(trigger.silence);
    if (trigger.businessHours) atMs = snap(s, atMs);
    out.push({ key: silenceKeyOf(flow.id, session.id, Date.parse(last)), at: new Date(atMs) });
  }
  return out;
}
