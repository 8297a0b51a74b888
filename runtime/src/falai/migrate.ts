// migrateSession: a 3.x session row (currentFlow, currentStep, flowHistory, signals) as one v4 session at version 0.
import type { Run, Session } from "./types";
import { InvalidSessionError } from "./errors";
import { assertSession, freshSession } from "./session";
import { dedupeKeyOf, runIdOf } from "./keys";
import { isObject } from "./validate/shape";

export interface MigrateOptions {
  sessionId: string;
  /** An old flow id, or a key under `signals.triggers`, → the v4 flow id. */
  flowIdOf: (key: string) => string;
}


/** Dates anywhere in a value become ISO text, so the session serialises. */
function isoDates(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(isoDates);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isoDates(v)]));
  return value;
}

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : v instanceof Date ? v.toISOString() : undefined);

export function migrateSession<D = unknown>(legacy: unknown, options: MigrateOptions): Session<D> {
  const { sessionId, flowIdOf } = options;
  if (isObject(legacy) && legacy.v === 4) return assertSession<D>(legacy, sessionId);
  if (!isObject(legacy)) throw new InvalidSessionError(sessionId, `expected an object, got ${typeof legacy === "string" ? JSON.stringify(legacy) : String(legacy)}`);
  if (!isObject(legacy.data)) throw new InvalidSessionError(sessionId, `data is ${legacy.data === undefined ? "missing" : typeof legacy.data}, expected an object; not a 3.x session either`);
  const session = freshSession<D>(sessionId);
  session.data = legacy.data as Partial<D>;
  if (isObject(legacy.metadata)) session.metadata = isoDates(legacy.metadata) as Record<string, unknown>;
  if (Array.isArray(legacy.history)) session.history = legacy.history as Session["history"] & object;
  const claim = (flowId: string, at: string | undefined) => {
    session.claims[dedupeKeyOf(flowId, sessionId, "")] ??= { at: at ?? new Date(0).toISOString() };
  };
  for (const entry of Array.isArray(legacy.flowHistory) ? legacy.flowHistory : []) {
    if (isObject(entry) && entry.completed === true && typeof entry.flowId === "string") claim(flowIdOf(entry.flowId), text(entry.exitedAt) ?? text(entry.enteredAt));
  }
  const triggers = isObject(legacy.signals) && isObject(legacy.signals.triggers) ? legacy.signals.triggers : {};
  for (const [key, fired] of Object.entries(triggers)) claim(flowIdOf(key), isObject(fired) ? text(fired.firedAt) : undefined);
  const current = isObject(legacy.currentFlow) && typeof legacy.currentFlow.id === "string" ? legacy.currentFlow : undefined;
  if (current) {
    const flowId = flowIdOf(current.id as string);
    const step = isObject(legacy.currentStep) && typeof legacy.currentStep.id === "string" ? (legacy.currentStep.id as string) : null;
    const startedAt = text(current.enteredAt) ?? new Date(0).toISOString();
    const run: Run = {
      id: runIdOf(flowId, "migrated"), flowId, anchor: sessionId, dedupeKey: dedupeKeyOf(flowId, sessionId, ""), stepId: step,
      status: step ? "asking" : "running", trigger: { kind: "start", key: "migrated" }, hop: 0, startedAt,
      asked: {}, visits: step ? { [step]: 1 } : {}, outcomes: [],
    };
    session.runs.push(run);
    claim(flowId, startedAt);
  }
  return session;
}
