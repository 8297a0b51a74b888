// Session shape and its size caps: a session keeps only what replay and dedupe need.
import type { Session } from "./types";

/** Message ids remembered for `duplicate-input` (a redelivery older than this many messages is not caught). */
export const SEEN_CAP = 100;
/** Finished runs kept (live runs are always kept; there is at most one per flow). */
export const DONE_RUNS_CAP = 10;

export function freshSession<Data>(id: string): Session<Data> {
  return { id, version: 0, data: {} as Data, runs: [], seen: [] };
}

export function pruneSession(session: Session<unknown>): void {
  if (session.seen.length > SEEN_CAP) session.seen.splice(0, session.seen.length - SEEN_CAP);
  const done = session.runs.filter((r) => r.status === "done");
  if (done.length > DONE_RUNS_CAP) {
    const drop = new Set(done.slice(0, done.length - DONE_RUNS_CAP));
    session.runs = session.runs.filter((r) => !drop.has(r));
  }
}
