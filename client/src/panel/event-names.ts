// Transition events as a user of the machine thinks of them: "done: drafting" for the done event of the
// request invoked in state drafting, "error: scoring", "start" for the machine's init event, and the event
// type itself for the user's own events. The raw XState id goes on hover. Pure (used by the webview).

export interface EventName {
  /** What the panel shows. */
  text: string;
  /** The event type as XState wrote it (plus the actor id when the type alone does not say it). */
  raw: string;
}

/**
 * @param type   the event type (`xstate.done.actor.0.(machine).drafting`, or `xstate.done.actor` with the
 *               actor id in `data.actorId`, `GO`, ...)
 * @param data   the rest of the event, when the run reported it
 */
export function describeEvent(type: string, data?: unknown): EventName {
  const actorId = data && typeof data === "object" && typeof (data as { actorId?: unknown }).actorId === "string" ? (data as { actorId: string }).actorId : undefined;
  const raw = actorId && !type.endsWith(actorId) ? `${type} (${actorId})` : type;
  if (type === "xstate.init" || type === "@xstate.init") return { text: "start", raw };
  if (type === "xstate.stop" || type === "@xstate.stop") return { text: "stop", raw };
  for (const [prefix, label] of [["xstate.done.actor", "done"], ["xstate.error.actor", "error"], ["xstate.snapshot", "snapshot"]] as const) {
    if (type === prefix && actorId) return { text: `${label}: ${actorName(actorId)}`, raw };
    if (type.startsWith(`${prefix}.`)) return { text: `${label}: ${actorName(type.slice(prefix.length + 1))}`, raw };
  }
  if (type.startsWith("xstate.done.state.")) return { text: `finished: ${statePath(type.slice("xstate.done.state.".length))}`, raw };
  const after = /^xstate\.after\.(\d+)\.(.+)$/.exec(type);
  if (after) return { text: `after ${formatDelay(Number(after[1]))}: ${statePath(after[2])}`, raw };
  return { text: type, raw };
}

/**
 * An invoked actor's id → the state that invoked it. XState's default invoke id is
 * `<index>.<machine id>.<state path>` (`0.(machine).drafting`); an id the user gave (`judge`) stays.
 */
export function actorName(id: string): string {
  const generated = /^\d+\.(.+)$/.exec(id);
  if (!generated) return id;
  const rest = generated[1];
  return rest.includes(".") ? statePath(rest) : rest;
}

/** `(machine).parent.child` or `myMachine.parent.child` → `parent.child` (the machine id dropped). */
function statePath(id: string): string {
  if (id.startsWith("(machine).")) return id.slice("(machine).".length);
  const dot = id.indexOf(".");
  return dot > 0 ? id.slice(dot + 1) : id;
}

function formatDelay(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * A request name as the user thinks of it: an unnamed request is named by its generated invoke id
 * (`0.(machine).titling`), which reads as "unnamed request of titling"; any other name stays (raw on hover).
 */
export function describeRequestName(name: string): EventName {
  const generated = /^\d+\.(.+\..+|\(machine\))$/.test(name);
  return { text: generated ? `unnamed request of ${actorName(name)}` : name, raw: name };
}
