// Records what a run did, for results and reports: the state path (dotted values, in the order the run
// entered them) and the root machine's transition events.
import { jsonSafe } from "./json-safe";
import { dottedStateValue, type AnyMachineSnapshot, type EventObject } from "./xstate";

export interface TraceEvent {
  type: string;
  data?: unknown;
}

export class RunTrace {
  readonly path: string[] = [];
  readonly events: TraceEvent[] = [];
  /** The raw events (as the machine received them), for callers that want them as is. */
  readonly rawEvents: EventObject[] = [];
  /** The dotted state value after each event (parallel to `events`). */
  readonly statesAfter: string[] = [];

  record = (snapshot: AnyMachineSnapshot, event: EventObject): void => {
    this.rawEvents.push(event);
    const { type, ...rest } = event as EventObject & Record<string, unknown>;
    const data = Object.keys(rest).length ? jsonSafe(rest, 4) : undefined;
    this.events.push(data === undefined ? { type } : { type, data });
    const value = dottedStateValue(snapshot.value);
    this.statesAfter.push(value);
    // A transition that stays in the same state (a context update, a self-transition) adds no step.
    if (this.path[this.path.length - 1] !== value) this.path.push(value);
  };
}
