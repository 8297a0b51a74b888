// A turn's input, checked before anything runs or any call is spent: one kind (message, wake, event, start), the
// keys each takes, and a session that belongs to this id. Anything else is a TurnInputError, never ignored.
import type { EventMap } from "./types";
import { TurnInputError } from "./errors";
import { isObject, show } from "./validate/shape";

const COMMON = ["sessionId", "session", "context", "history", "silenced", "anchors", "claims"];
const KIND_KEYS: Record<string, readonly string[]> = {
  message: ["message", "id", "at"],
  wake: ["wake"],
  event: ["event", "payload", "key", "hop"],
  start: ["start"],
};


function text(value: unknown, name: string, fix: string, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== "string" || (!optional && value === "")) throw new TurnInputError("bad-input", `${name} is ${show(value)}`, fix);
}

function hop(value: unknown, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) throw new TurnInputError("bad-input", `${name} is ${show(value)}`, "Write a whole number, 0 or more.");
}

export function validateTurnInput(input: unknown, events: EventMap): void {
  if (!isObject(input)) throw new TurnInputError("bad-input", `the input is ${show(input)}`, "Pass { sessionId, message | wake | event | start, ... }.");
  text(input.sessionId, "sessionId", "Pass the conversation's id as a non-empty string.");
  const kinds = Object.keys(KIND_KEYS).filter((k) => input[k] !== undefined);
  if (kinds.length === 0) throw new TurnInputError("no-input-kind", "the input has no message, wake, event or start", "Pass exactly one of them.");
  if (kinds.length > 1) throw new TurnInputError("several-input-kinds", `the input has ${kinds.join(" and ")}`, "Pass exactly one of message, wake, event, start.");
  const kind = kinds[0]!;
  const allowed = [...COMMON, ...KIND_KEYS[kind]!];
  for (const key of Object.keys(input)) {
    if (input[key] !== undefined && !allowed.includes(key)) throw new TurnInputError("unknown-key", `unknown key "${key}" on a ${kind} input`, `A ${kind} input takes ${allowed.map((k) => `\`${k}\``).join(", ")}.`);
  }
  if (kind === "message") {
    text(input.message, "message", "Pass the customer's text as a string.", false);
    text(input.id, "id", "Pass the channel's message id as a string (or leave it out).", true);
    if (input.at !== undefined && (typeof input.at !== "string" || !Number.isFinite(Date.parse(input.at)))) throw new TurnInputError("bad-input", `at is ${show(input.at)}`, "Pass the receipt time as ISO text.");
  } else if (kind === "wake") {
    text(input.wake, "wake", "Pass the key a schedule entry carried.");
  } else if (kind === "event") {
    text(input.event, "event", "Pass the registered event's name.");
    if (!events[input.event as string]) throw new TurnInputError("unknown-event", `unknown event "${input.event as string}"`, "Register it in the agent's events or fix the name.");
    text(input.key, "key", "Pass your idempotency key for this occurrence of the event.");
    hop(input.hop, "hop");
  } else {
    const start = input.start;
    if (!isObject(start)) throw new TurnInputError("bad-input", `start is ${show(start)}`, "Pass start: { flow, key, input? }.");
    for (const key of Object.keys(start)) if (!["flow", "input", "key", "hop"].includes(key)) throw new TurnInputError("unknown-key", `unknown key "start.${key}"`, "start takes `flow`, `key`, `input`, `hop`.");
    text(start.flow, "start.flow", "Pass the id of the flow to start.");
    text(start.key, "start.key", "Pass your key for this start (the run id is `${flow}#${key}`).");
    hop(start.hop, "start.hop");
  }
  if (input.session !== undefined && input.session !== null && (!isObject(input.session) || input.session.id !== input.sessionId)) {
    throw new TurnInputError("session-mismatch", `the session passed is ${show(isObject(input.session) ? input.session.id : input.session)}, not "${input.sessionId as string}"`, "Pass the session the store loaded for this sessionId.");
  }
  if (input.history !== undefined && !Array.isArray(input.history)) throw new TurnInputError("bad-input", "history is not a list", "Pass the conversation as [{ role, content }, ...].");
  if (input.silenced !== undefined && typeof input.silenced !== "string" && !(isObject(input.silenced) && typeof input.silenced.reason === "string")) {
    throw new TurnInputError("bad-input", `silenced is ${show(input.silenced)}`, "Pass a reason string, or { reason, understand? }.");
  }
  if (input.claims !== undefined && !(isObject(input.claims) && isObject(input.claims.held) && Array.isArray(input.claims.active))) {
    throw new TurnInputError("bad-input", `claims is ${show(input.claims)}`, "Pass { held: { dedupeKey: isoTime }, active: [\"flowId:anchor\"] }.");
  }
  if (input.anchors !== undefined && !(isObject(input.anchors) && Object.values(input.anchors).every((a) => isObject(a) && typeof a.key === "string"))) {
    throw new TurnInputError("bad-input", `anchors is ${show(input.anchors)}`, "Pass { name: { key, lastInboundAt? } }.");
  }
}
