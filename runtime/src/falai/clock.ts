// Clocks. The core reads time only through a Clock; the system clock is the default outside tests.
import type { Clock, Duration } from "./types";
import { parseDuration } from "./duration";

export interface FakeClock extends Clock {
  /** Moves time forward and returns the new now. */
  advance(by: Duration): Date;
  /** Jumps to a given time. */
  set(to: string | number | Date): Date;
}

function toMs(at: string | number | Date): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new TypeError(`fakeClock: ${String(at)} is not a time`);
  return ms;
}

/** A clock that only moves when told to. Every `now()` returns a fresh Date. */
export function fakeClock(start: string | number | Date): FakeClock {
  let ms = toMs(start);
  return {
    now: () => new Date(ms),
    advance(by) {
      ms += parseDuration(by, "fakeClock.advance");
      return new Date(ms);
    },
    set(to) {
      ms = toMs(to);
      return new Date(ms);
    },
  };
}

/** The real clock (the default when an agent gets no clock). */
export function systemClock(): Clock {
  return { now: () => new Date() };
}
