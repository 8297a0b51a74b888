// bad-duration: a duration that does not parse, in any duration slot: a silence trigger, an event
// trigger's `after`, a `repeat: { cooldown }`, a `wait`, a `wait: { upTo }`, or a fake clock's `advance`.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import type { DurationValue } from "../model";
import { finding } from "./finding";

const HINT = 'Write a number with a unit (s, m, h, d), e.g. "30s", "5m", "24h", "3d", or a number of milliseconds.';

export const badDuration: CheckDescriptor<FalaiFileModel> = {
  code: "bad-duration",
  severity: "error",
  description: "A duration string does not parse.",
  when: "a `silence` / `after` / `cooldown` / `wait` / `upTo` value (`\"24h\"`, `\"3d\"`, `\"30s\"`) that does not parse",
  docs: "a `silence`, `after`, `cooldown`, `wait`, `upTo` or fake-clock `advance` value that is not a duration",
  run: (model) => {
    const out: Finding[] = [];
    const file = model.file;
    for (const flow of model.flows) {
      for (const t of flow.triggers) {
        check(out, file, t.silence, "Silence");
        check(out, file, t.after, "after");
        check(out, file, t.cooldown, "cooldown");
      }
      for (const s of flow.steps) {
        check(out, file, s.wait, "Wait");
        check(out, file, s.upTo, "upTo");
      }
    }
    for (const d of model.durations) check(out, file, d, "Duration");
    return out;
  },
};

/** Reports `d` when it does not parse (a module function, not a closure made per call: util/shapes.ts). */
function check(out: Finding[], file: string, d: DurationValue | undefined, what: string): void {
  if (d && d.ms === undefined) out.push(finding("bad-duration", `${what} '${d.text}' is not a duration. ${HINT}`, file, d.full));
}
