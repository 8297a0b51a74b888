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

const isText = (v: unknown): v is string => typeof v === "string";
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** Why a stored run is not a v4 run, or undefined when it is one (upstream rejects the same shapes). */
function runProblem(run: unknown): string | undefined {
  if (!isObject(run) || !isText(run.id) || !isText(run.flowId)) return "a run has no id or flowId";
  const at = `run "${run.id}"`;
  if (!RUN_STATUSES.has(run.status as string)) return `${at} has status ${describe(run.status)}`;
  if (!isObject(run.trigger) || !isText(run.trigger.kind) || !isText(run.trigger.key)) return `${at} has trigger ${describe(run.trigger) === "undefined" ? "missing" : describe(run.trigger)}, expected { kind, key }`;
  if (!isCount(run.hop)) return `${at} has hop ${describe(run.hop)}, expected a whole number`;
  if (!isText(run.anchor) || !isText(run.dedupeKey)) return `${at} has no anchor or dedupeKey`;
  if (run.stepId !== null && !isText(run.stepId)) return `${at} has stepId ${describe(run.stepId)}, expected a step id or null`;
  if (!isText(run.startedAt)) return `${at} has startedAt ${describe(run.startedAt)}, expected ISO text`;
  for (const key of ["asked", "visits"] as const) if (!isObject(run[key])) return `${at} has ${key} ${describe(run[key])}, expected an object`;
  if (!Array.isArray(run.outcomes)) return `${at} has outcomes ${describe(run.outcomes)}, expected a list`;
  return undefined;
}

/** The blob as a v4 Session holding only the session keys, or InvalidSessionError. */
export function assertSession<D = unknown>(blob: unknown, sessionId: string): Session<D> {
  const bad = (why: string) => new InvalidSessionError(sessionId, why);
  if (!isObject(blob)) throw bad(`expected an object, got ${describe(blob)}`);
  if (blob.v !== 4) throw bad(`v is ${describe(blob.v) === "undefined" ? "missing" : JSON.stringify(blob.v)}, expected 4`);
  if (blob.id !== sessionId) throw bad(`its id is ${describe(blob.id)}, not "${sessionId}"`);
  if (!isCount(blob.version)) throw bad(`version is ${describe(blob.version)}, expected a whole number`);
  if (!isObject(blob.data)) throw bad(`data is ${describe(blob.data)}, expected an object`);
  if (!Array.isArray(blob.runs)) throw bad(`runs is ${describe(blob.runs)}, expected a list`);
  for (const run of blob.runs) {
    const problem = runProblem(run);
    if (problem) throw bad(problem);
  }
  if (!isObject(blob.claims)) throw bad(`claims is ${describe(blob.claims)}, expected an object`);
  for (const [key, claim] of Object.entries(blob.claims)) if (!isObject(claim) || !isText(claim.at)) throw bad(`claim "${key}" is ${JSON.stringify(claim) ?? "undefined"}, expected { at: ISO text }`);
  if (!Array.isArray(blob.inputs) || !blob.inputs.every(isText)) throw bad(`inputs is ${JSON.stringify(blob.inputs) ?? "missing"}, expected a list of message ids`);
  for (const key of ["lastUserAt", "lastAssistantAt"] as const) if (blob[key] !== undefined && !isText(blob[key])) throw bad(`${key} is ${describe(blob[key])}, expected ISO text`);
  if (blob.history !== undefined && !Array.isArray(blob.history)) throw bad(`history is ${describe(blob.history)}, expected a list`);
  if (!isObject(blob.metadata)) throw bad(`metadata is ${describe(blob.metadata) === "undefined" ? "missing" : describe(blob.metadata)}, expected an object`);
  const out: Record<string, unknown> = {};
  for (const key of SESSION_KEYS) if (blob[key] !== undefined) out[key] = blob[key];
  return out as unknown as Session<D>;
}
