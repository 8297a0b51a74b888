// Script entries (SeamScriptEntry): a bare output value, an executor-result envelope (only when the
// object's own keys are `result` plus optionally `messages`, `usage`, `raw`), or a function of the
// request returning either.
import { AgentError } from "../errors";
import type { AgentRequestExecutorResult, AgentTextRequest } from "../types";

/** A bare output value (or an envelope), or a function of the request returning one. */
export type SeamScriptValue = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };
export type SeamScriptEntry = SeamScriptValue | AgentRequestExecutorResult | ((request: AgentTextRequest) => unknown);

const ENVELOPE_KEYS = new Set(["result", "messages", "usage", "raw"]);

/** True when an entry is read as an executor result rather than as the output value itself. */
function isEnvelope(value: unknown): value is AgentRequestExecutorResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  return keys.includes("result") && keys.every((key) => ENVELOPE_KEYS.has(key));
}

/** Resolves one entry for a request into an executor result. */
export async function resolveEntry(entry: SeamScriptEntry, request: AgentTextRequest): Promise<AgentRequestExecutorResult> {
  let value: unknown = entry;
  if (typeof value === "function") {
    try {
      value = await (value as (request: AgentTextRequest) => unknown)(request);
    } catch (error) {
      throw new AgentError("invalid-script-entry", `The script entry function for request "${request.name}" threw: ${(error as Error)?.message ?? error}`, { request: request.name, cause: error });
    }
  }
  return isEnvelope(value) ? value : { result: value };
}
