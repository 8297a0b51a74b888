// Silence wakes: after a turn in which the assistant spoke (and the customer has not written since), every
// silence flow whose `if` and `repeat` allow it gets a wake at lastAssistantAt + its silence.
import { parseDuration } from "../duration";
import { silenceKeyOf } from "../keys";
import { checkStart, snap } from "./starts";
import type { TurnState } from "./state";

export function armSilence(s: TurnState, previousAssistantAt: string | undefined): void {
  const last = s.session.lastAssistantAt;
  if (!s.wentOut || last === undefined) return;
  if (s.session.lastUserAt !== undefined && s.session.lastUserAt > last) return;
  const lastMs = Date.parse(last);
  for (const flow of s.engine.flows) {
    const trigger = flow.on?.find((t) => "silence" in t);
    if (!trigger || !("silence" in trigger)) continue;
    if (!checkStart(s, flow, { kind: "silence", key: String(lastMs), trigger, hop: 0 }).ok) continue;
    let atMs = lastMs + parseDuration(trigger.silence);
    if (trigger.businessHours) atMs = snap(s, atMs);
    const replaces = previousAssistantAt !== undefined && previousAssistantAt !== last ? silenceKeyOf(flow.id, s.session.id, Date.parse(previousAssistantAt)) : undefined;
    s.schedule.push({ key: silenceKeyOf(flow.id, s.session.id, lastMs), at: new Date(atMs), ...(replaces ? { replaces } : {}) });
  }
}
