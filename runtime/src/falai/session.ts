// A session's shape, its caps, and assertSession (the one check every load goes through).
import type { Session } from "./types";
import { InvalidSessionError } from "./errors";
import { isObject } from "./validate/shape";

/** Message ids kept for `duplicate-input`. */
export const INPUTS_CAP = 50;
/** Lines kept on each run (`run.outcomes`); `TurnResult.outcomes` is never trimmed. */
export const RUN_OUTCOMES_CAP = 50;
/** `repeat: 'always'` claims kept per flow and anchor (`once` and cooldown claims are never dropped). */
export const ALWAYS_CLAIMS_CAP = 50;

const RUN_STATUSES = new Set(["running", "asking", "waiting", "suspended"]);
const SESSION_KEYS = ["id", "v", "version", "data", "runs", "claims", "inputs", "lastUserAt", "lastAssistantAt", "history", "metadata"] as const;

export function freshSession<D>(id: string): Session<D> {
  return { id, v: 4, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
}

const describe = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? "a list" : v === null ? "null" : typeof v);

/** The blob as a v4 Session holding only the session keys, or InvalidSessionError. */
export function assertSession<D = unknown>(blob: unknown, sessionId: string): Session<D> {
  if (!isObject(blob)) throw new InvalidSessionError(sessionId, `expected an object, got ${describe(blob)}`);
  if (blob.v !== 4) throw new InvalidSessionError(sessionId, `v is ${describe(blob.v) === "undefined" ? "missing" : JSON.stringify(blob.v)}, expected 4`);
  if (blob.id !== sessionId) throw new InvalidSessionError(sessionId, `its id is ${describe(blob.id)}, not "${sessionId}"`);
  if (typeof blob.version !== "number" || !Number.isInteger(blob.version) || blob.version < 0) throw new InvalidSessionError(sessionId, `version is ${describe(blob.version)}, expected a whole number`);
  if (!isObject(blob.data)) throw new InvalidSessionError(sessionId, `data is ${describe(blob.data)}, expected an object`);
  if (!Array.isArray(blob.runs)) throw new InvalidSessionError(sessionId, `runs is ${describe(blob.runs)}, expected a list`);
  for (const run of blob.runs) {
    if (!isObject(run) || typeof run.id !== "string" || typeof run.flowId !== "string") throw new InvalidSessionError(sessionId, "a run has no id or flowId");
    if (!RUN_STATUSES.has(run.status as string)) throw new InvalidSessionError(sessionId, `run "${run.id}" has status ${describe(run.status)}`);
  }
  if (!isObject(blob.claims)) throw new InvalidSessionError(sessionId, `claims is ${describe(blob.claims)}, expected an object`);
  if (!Array.isArray(blob.inputs)) throw new InvalidSessionError(sessionId, `inputs is ${describe(blob.inputs)}, expected a list`);
  if (blob.metadata !== undefined && !isObject(blob.metadata)) throw new InvalidSessionError(sessionId, `metadata is ${describe(blob.metadata)}, expected an object`);
  const out: Record<string, unknown> = {};
  for (const key of SESSION_KEYS) if (blob[key] !== undefined) out[key] = blob[key];
  out.metadata ??= {};
  return out as unknown as Session<D>;
}
