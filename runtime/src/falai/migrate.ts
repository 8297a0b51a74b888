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
  /** The time a run or claim gets when the row does not say (default: the time of the call). */
  now?: Date;
}


/** Dates anywhere in a value become ISO text, so the session serialises. */
function isoDates(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(isoDates);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isoDates(v)]));
  return value;
}

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : v instanceof Date ? v.toISOString() : undefined);

const describe = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? "a list" : v === null ? "null" : typeof v);

/** Throws when a 3.x row has a known key of the wrong shape (upstream rejects these too). */
function checkLegacy(row: Record<string, unknown>, sessionId: string): void {
  const bad = (why: string) => new InvalidSessionError(sessionId, why);
  if (row.v !== undefined) throw bad(`v is ${JSON.stringify(row.v)}, expected 4 (or no v: a 3.x session)`);
  if (!isObject(row.data)) throw bad(`data is ${row.data === undefined ? "missing" : describe(row.data)}, expected an object; not a 3.x session either`);
  if (row.currentFlow !== undefined && !(isObject(row.currentFlow) && typeof row.currentFlow.id === "string")) throw bad(`currentFlow is ${describe(row.currentFlow)}, expected { id, ... }`);
  if (row.currentStep !== undefined && row.currentStep !== null && !(isObject(row.currentStep) && typeof row.currentStep.id === "string")) throw bad(`currentStep is ${describe(row.currentStep)}, expected { id, ... }`);
  if (row.flowHistory !== undefined && !(Array.isArray(row.flowHistory) && row.flowHistory.every((e) => isObject(e) && typeof e.flowId === "string"))) throw bad("flowHistory is not a list of { flowId, ... }");
  if (row.signals !== undefined && !(isObject(row.signals) && (row.signals.triggers === undefined || isObject(row.signals.triggers)))) throw bad("signals.triggers is not an object of signal keys");
  if (row.metadata !== undefined && !isObject(row.metadata)) throw bad(`metadata is ${describe(row.metadata)}, expected an object`);
  if (row.history !== undefined && !Array.isArray(row.history)) throw bad(`history is ${describe(row.history)}, expected a list`);
}

/**
 * A 3.x row as a v4 session at version 0 (upstream's names: the current flow becomes the run `${flowId}#legacy`,
 * trigger `{ kind: "message", key: "legacy" }`; a fired signal is claimed at its `lastTriggeredAt`, the last firing a
 * cooldown reads). A v4 row passes through `assertSession`.
 */
export function migrateSession<D = unknown>(legacy: unknown, options: MigrateOptions): Session<D> {
  const { sessionId, flowIdOf } = options;
  if (isObject(legacy) && legacy.v === 4) return assertSession<D>(legacy, sessionId);
  if (!isObject(legacy)) throw new InvalidSessionError(sessionId, `expected an object, got ${describe(legacy)}`);
  checkLegacy(legacy, sessionId);
  const now = (options.now ?? new Date()).toISOString();
  const session = freshSession<D>(sessionId);
  session.data = legacy.data as Partial<D>;
  if (isObject(legacy.metadata)) session.metadata = isoDates(legacy.metadata) as Record<string, unknown>;
  if (Array.isArray(legacy.history)) session.history = legacy.history as Session["history"] & object;
  const claim = (flowId: string, at: string | undefined) => {
    session.claims[dedupeKeyOf(flowId, sessionId, "")] ??= { at: at ?? now };
  };
  for (const entry of (legacy.flowHistory ?? []) as Array<Record<string, unknown>>) {
    if (entry.completed === true) claim(flowIdOf(entry.flowId as string), text(entry.exitedAt) ?? text(entry.enteredAt));
  }
  const triggers = isObject(legacy.signals) && isObject(legacy.signals.triggers) ? legacy.signals.triggers : {};
  for (const [key, fired] of Object.entries(triggers)) claim(flowIdOf(key), isObject(fired) ? (text(fired.lastTriggeredAt) ?? text(fired.firstTriggeredAt)) : undefined);
  const current = isObject(legacy.currentFlow) ? legacy.currentFlow : undefined;
  if (current) {
    const flowId = flowIdOf(current.id as string);
    const step = isObject(legacy.currentStep) ? (legacy.currentStep.id as string) : null;
    const startedAt = text(current.enteredAt) ?? now;
    const run: Run = {
      id: runIdOf(flowId, "legacy"), flowId, anchor: sessionId, dedupeKey: dedupeKeyOf(flowId, sessionId, ""), stepId: step,
      status: step ? "asking" : "running", trigger: { kind: "message", key: "legacy" }, hop: 0, startedAt,
      asked: {}, visits: {}, outcomes: [],
    };
    session.runs.push(run);
    claim(flowId, startedAt);
  }
  return session;
}
