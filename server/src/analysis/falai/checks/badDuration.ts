// bad-duration: a duration ("24h", "2d", "90m", "1h30m", or milliseconds) that does not parse.
import type { Finding } from "../../types";
import type { DurationValue } from "../model";
import { finding, type FalaiCheck } from "./finding";

const HINT = 'Write numbers with units (ms, s, m, h, d), e.g. "24h", "2d", "90m", "1h30m", "30s", "500ms", or a number of milliseconds.';

export const badDuration: FalaiCheck = (model) => {
  const out: Finding[] = [];
  const check = (d: DurationValue | undefined, what: string) => {
    if (d && d.ms === undefined) out.push(finding("bad-duration", `${what} '${d.text}' is not a duration. ${HINT}`, model.file, d.full));
  };
  for (const flow of model.flows) {
    for (const t of flow.triggers) check(t.silence, "Silence");
    for (const s of flow.steps) check(s.wait, "Wait");
  }
  for (const d of model.durations) check(d, "Duration");
  return out;
};
