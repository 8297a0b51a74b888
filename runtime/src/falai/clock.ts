// Clocks. A clock is a function returning "now"; the runtime reads it once per turn and never calls Date.now().
import type { Clock } from "./types";
import { parseDuration } from "./duration";

/** A clock that only moves when told to. Pass it as the agent's `clock`; `now()` and calling it return the same time. */
export interface FakeClock extends Clock {
  now(): Date;
  /** Moves time forward by a duration ("24h", "90m") and returns the new now. */
  advance(by: string): Date;
  /** Jumps to a given time. */
  set(to: string | number | Date): Date;
}

function toMs(at: string | number | Date): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new TypeError(`fakeClock: ${String(at)} is not a time`);
  return ms;
}

export function fakeClock(start: string | number | Date): FakeClock {
  let ms = toMs(start);
  const clock = (() => new Date(ms)) as FakeClock;
  clock.now = () => new Date(ms);
  clock.advance = (by) => {
    ms += parseDuration(by, "fakeClock.advance");
    return new Date(ms);
  };
  clock.set = (to) => {
    ms = toMs(to);
    return new Date(ms);
  };
  return clock;
}

/** The real clock, the default when an agent gets none. */
export const systemClock: Clock = () => new Date();
