// Records what a run did: every root-machine transition (the event, the state value after it, and when).
// Recording keeps references only; the JSON-safe forms (report payloads, the event log) are built when
// someone asks, so a run nobody reports on pays nothing for them.
import { jsonSafe } from "./json-safe";
import { reporterInstalled } from "./reporting";
import { MachineVisited } from "./visited";
import { dottedStateValue, type AnyMachineSnapshot, type EventObject, type StateValue } from "./xstate";

/** A transition event as reports carry it: its type plus a JSON-safe copy of the rest. */
export interface TraceEvent {
  type: string;
  data?: unknown;
}

export class RunTrace {
  /** The raw events, as the machine received them. */
  readonly rawEvents: EventObject[] = [];
  /** The state value after each event (parallel to `rawEvents`). */
  readonly values: StateValue[] = [];
  /** When each event was taken (ms since the epoch). */
  readonly times: number[] = [];
  /** What the run visited, for agent coverage: recorded only when a harness reporter listens. */
  readonly visited = reporterInstalled() ? new MachineVisited() : undefined;

  record = (snapshot: AnyMachineSnapshot, event: EventObject): void => {
    this.rawEvents.push(event);
    this.values.push(snapshot.value);
    this.times.push(Date.now());
  };

  /** Dotted state values in the order entered; a transition that stays in the same state adds nothing. */
  get path(): string[] {
    return dedupe(this.dotted());
  }

  /** The dotted state value after each event. */
  dotted(from = 0, to = this.values.length): string[] {
    return this.values.slice(from, to).map(dottedStateValue);
  }

  /** The events as reports carry them. */
  get events(): TraceEvent[] {
    return this.reportEvents(0, this.rawEvents.length);
  }

  reportEvents(from: number, to: number): TraceEvent[] {
    return this.rawEvents.slice(from, to).map(toTraceEvent);
  }
}

function toTraceEvent(event: EventObject): TraceEvent {
  const { type, ...rest } = event as EventObject & Record<string, unknown>;
  const data = Object.keys(rest).length ? jsonSafe(rest, 4) : undefined;
  return data === undefined ? { type } : { type, data };
}

function dedupe(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) if (out[out.length - 1] !== value) out.push(value);
  return out;
}
