// Small readers of a snapshot that user code (onTransition callbacks, respond policies, tests) needs.
import { AgentError } from "./errors";
import { dottedStateValue, stateMeta, type AnyMachineSnapshot, type StateValue } from "./xstate";

/** The state of a snapshot (or a state value) as a dotted path: "review.editing"; parallel regions joined by ",". */
export function getStatePath(snapshot: { value: StateValue } | StateValue): string {
  const value = typeof snapshot === "object" && snapshot !== null && "value" in snapshot ? (snapshot as { value: StateValue }).value : snapshot;
  if (typeof value !== "string" && (typeof value !== "object" || value === null)) {
    throw new AgentError("invalid-options", "getStatePath needs a snapshot or a state value.");
  }
  return dottedStateValue(value as StateValue);
}

/** The `meta` of the snapshot's active states, merged (`{}` when none declares any). */
export function getStateMeta(snapshot: AnyMachineSnapshot): Record<string, unknown> {
  if (typeof snapshot !== "object" || snapshot === null) throw new AgentError("invalid-options", "getStateMeta needs a machine snapshot.");
  return stateMeta(snapshot);
}
