// bad-duration: a duration that does not parse, in any duration slot: a silence trigger, an event
// trigger's `after`, a `repeat: { cooldown }`, a `wait`, a `wait: { upTo }`, or a fake clock's `advance`.
import type { Finding } from "../../types";
import type { DurationValue } from "../model";
import { finding, type FalaiCheck } from "./finding";

const HINT = 'Write a number with a unit (s, m, h, d), e.g. "30s", "5m", "24h", "3d", or a number of milliseconds.';

export const badDuration: FalaiCheck = (model) => {
  const out: Finding[] = [];
  const check = (d: DurationValue | undefined, what: string) => {
    if (d && d.ms === undefined) out.push(finding("bad-duration", `${what} '${d.text}' is not a duration. ${HINT}`, model.file, d.full));
  };
  for (const flow of model.flows) {
    for (const t of flow.triggers) {
      check(t.silence, "Silence");
      check(t.after, "after");
      check(t.cooldown, "cooldown");
    }
    for (const s of flow.steps) {
      check(s.wait, "Wait");
      check(s.upTo, "upTo");
    }
  }
  for (const d of model.durations) check(d, "Duration");
  return out;
};
