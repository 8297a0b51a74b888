// Turns whatever a vendor SDK threw into the runtime's ProviderError, whose `kind` the turn engine reads (speak.ts:
// rate / overload / timeout / network wait and retry, auth / context / invalid end the run, a quota with a reset
// waits for it), and says which failures are worth another attempt or another model. The rules are upstream's:
// 429 / 500 / 503 (529 for Anthropic), overload-style codes and types, and messages containing "overloaded",
// "unavailable" or "internal error" (OpenRouter also "capacity") move on to a backup model; nothing else does.
import { ProviderError, type ErrorKind } from "../errors";

export interface VendorRules {
  /** The provider's `name` ("openai"). */
  provider: string;
  /** How messages name the vendor ("OpenAI"). */
  label: string;
  overloadStatuses: readonly number[];
  overloadCodes: readonly string[];
  overloadTypes: readonly string[];
  overloadMessages: readonly string[];
}

/** Upstream's shared message substrings; a vendor adds its own in its rules. */
export const OVERLOAD_MESSAGES = ["overloaded", "unavailable", "internal error", "Internal error"];

/** A reply with no text and no tool call (upstream's "No response from <vendor>"): worth another attempt. */
export class EmptyReply extends Error {
  constructor(label: string) {
    super(`No response from ${label}`);
    this.name = "EmptyReply";
  }
}

/** The attempt ran past `retryConfig.timeout`. */
export class AttemptTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = "AttemptTimeout";
  }
}

/** A failure the runner may try again on the same model. */
export function isRetryable(e: ProviderError): boolean {
  return e.isTransient || e.cause instanceof EmptyReply;
}

/** A failure the runner may take to the next backup model (upstream: rate limits, overload, a missing model). */
export function isFailover(e: ProviderError): boolean {
  return e.kind === "rate" || e.kind === "overload" || e.kind === "model";
}

interface Shape {
  status?: unknown;
  code?: unknown;
  type?: unknown;
  message?: unknown;
  name?: unknown;
  headers?: unknown;
  error?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The vendor's error body, whichever SDK field holds it (openai `error`, anthropic `error.error`, genai JSON text). */
function bodyOf(e: Shape): Record<string, unknown> {
  const nested = e.error && typeof e.error === "object" ? (e.error as Record<string, unknown>) : undefined;
  if (nested) return nested.error && typeof nested.error === "object" ? (nested.error as Record<string, unknown>) : nested;
  const text = str(e.message);
  if (text?.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (parsed.error && typeof parsed.error === "object") return parsed.error as Record<string, unknown>;
    } catch {
      // not JSON after all
    }
  }
  return {};
}

function header(e: Shape, name: string): string | undefined {
  const h = e.headers as { get?: (n: string) => string | null } | Record<string, unknown> | undefined;
  if (!h) return undefined;
  if (typeof (h as { get?: unknown }).get === "function") return (h as { get(n: string): string | null }).get(name) ?? undefined;
  return str((h as Record<string, unknown>)[name]);
}

/** What the server asked us to wait: `retry-after-ms`, `retry-after` (seconds or a date), Gemini's RetryInfo. */
function retryAfterOf(e: Shape, body: Record<string, unknown>): number | undefined {
  const ms = Number(header(e, "retry-after-ms"));
  if (header(e, "retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const after = header(e, "retry-after");
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  for (const d of Array.isArray(body.details) ? body.details : []) {
    const delay = str((d as { retryDelay?: unknown }).retryDelay);
    const m = delay && /^(\d+(?:\.\d+)?)s$/.exec(delay);
    if (m) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
}

const CONTEXT = /context[_ ]length|maximum context|prompt is too long|too many tokens|exceeds the maximum number of tokens|input token count/i;
const NETWORK = /fetch failed|connection error|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|socket hang up|other side closed|network|terminated/i;

/** Gemini says a per-day (or per-month) quota is spent: that waits for the reset, not for a backoff. */
function longQuota(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.details ?? "").match(/PerDay|per_day|PerMonth/i) !== null;
}

function kindOf(rules: VendorRules, e: Shape, body: Record<string, unknown>, message: string): ErrorKind {
  // The SDKs' classes keep name "Error": their constructor names tell them apart.
  const name = [str(e.name), str((e as { constructor?: { name?: unknown } }).constructor?.name)].find((n) => n && n !== "Error") ?? "";
  if (name === "APIConnectionTimeoutError") return "timeout";
  if (name === "APIUserAbortError" || name === "AbortError") return "aborted";
  const status = typeof e.status === "number" ? e.status : undefined;
  const code = str(e.code) ?? str(body.code);
  const type = str(e.type) ?? str(body.type) ?? str(body.status);
  if (code === "refusal") return "content";
  if (status === 401 || /API key not valid|invalid.{0,10}api.?key|incorrect api key/i.test(message)) return "auth";
  if (status === 403) return "entitlement";
  if (code === "insufficient_quota" || (status === 429 && longQuota(body))) return "quota";
  if (status === 429) return "rate";
  if ((status !== undefined && rules.overloadStatuses.includes(status)) || (code !== undefined && rules.overloadCodes.includes(code)) || (type !== undefined && rules.overloadTypes.includes(type))) return "overload";
  if (rules.overloadMessages.some((m) => message.includes(m))) return "overload";
  if (status === 404 || code === "model_not_found") return "model";
  if (status === 408) return "timeout";
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT.test(message)) || code === "context_length_exceeded") return "context";
  if (status !== undefined && status >= 500) return "network"; // a gateway's 502 / 504: try the same model again
  if (status !== undefined && status >= 400) return "invalid";
  const cause = (e as { cause?: { message?: unknown; code?: unknown } }).cause;
  if (status === undefined && (name === "APIConnectionError" || [message, cause?.message, cause?.code].some((t) => typeof t === "string" && NETWORK.test(t)))) return "network";
  return "unknown";
}

/** Removes the key from a text that will be shown (a server that echoes what it received). */
function scrub(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.split(apiKey).join("[redacted]") : text;
}

/**
 * The SDK's error as the `cause` of ours, rebuilt with only its name, message, status, code, type, request id and
 * cause (each text scrubbed): the SDK's own object keeps the server's raw body, which may echo the key.
 */
function scrubbedCause(error: unknown, apiKey: string, depth = 0): unknown {
  if (!(error instanceof Error) && !(error && typeof error === "object")) return typeof error === "string" ? scrub(error, apiKey) : error;
  const e = error as Shape & { cause?: unknown; requestID?: unknown; stack?: unknown };
  const copy = new Error(scrub(str(e.message) ?? String(error), apiKey));
  copy.name = str(e.name) ?? "Error";
  if (typeof e.stack === "string") copy.stack = scrub(e.stack, apiKey);
  for (const k of ["status", "code", "type", "requestID"] as const) {
    const v = e[k as keyof typeof e];
    if (typeof v === "string" || typeof v === "number") Object.defineProperty(copy, k, { value: typeof v === "string" ? scrub(v, apiKey) : v, enumerable: true });
  }
  if (e.cause !== undefined && depth < 3) copy.cause = scrubbedCause(e.cause, apiKey, depth + 1);
  return copy;
}

/** Classifies one failure of one attempt. `model` names the model the attempt called. */
export function classify(rules: VendorRules, error: unknown, model: string, apiKey: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof EmptyReply) return new ProviderError({ provider: rules.provider, kind: "unknown", message: `${error.message} (model ${model})`, cause: error });
  if (error instanceof AttemptTimeout) {
    return new ProviderError({ provider: rules.provider, kind: "timeout", message: `${rules.label} ${model}: no answer within ${error.ms} ms (retryConfig.timeout)`, cause: error });
  }
  const e = (error && typeof error === "object" ? error : { message: String(error) }) as Shape;
  const body = bodyOf(e);
  const raw = str(body.message) ?? str(e.message) ?? String(error);
  const message = scrub(raw, apiKey);
  const kind = kindOf(rules, e, body, raw);
  const status = typeof e.status === "number" ? e.status : undefined;
  const code = str(e.code) ?? str(body.code) ?? str(body.type) ?? str(body.status);
  const retryAfterMs = retryAfterOf(e, body);
  return new ProviderError({
    provider: rules.provider, kind, message: `${rules.label} ${model}: ${status !== undefined ? `${status} ` : ""}${message}`,
    ...(status !== undefined ? { status } : {}), ...(code !== undefined ? { code } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(kind === "quota" && retryAfterMs !== undefined ? { resetAtMs: Date.now() + retryAfterMs } : {}),
    cause: scrubbedCause(error, apiKey),
  });
}
