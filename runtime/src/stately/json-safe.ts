// Report payloads cross a process boundary as JSON: keep plain values, drop functions and cycles, turn
// errors into { name, message, code }, and bound the size of what the editor has to show.
export function jsonSafe(value: unknown, depth = 8, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "undefined" || typeof value === "function" || typeof value === "symbol") return undefined;
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(typeof code === "string" ? { code } : {}) };
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "object") return undefined;
  if (seen.has(value)) return "[circular]";
  if (depth <= 0) return "[…]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => jsonSafe(item, depth - 1, seen) ?? null);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
      return jsonSafe((value as { toJSON: () => unknown }).toJSON(), depth - 1, seen);
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const safe = jsonSafe(item, depth - 1, seen);
      if (safe !== undefined) out[key] = safe;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

export function errorPayload(error: unknown): { message: string; code?: string; request?: string; key?: string; raw?: string } {
  if (error instanceof Error) {
    const e = error as Error & { code?: unknown; request?: unknown; key?: unknown; rawMessage?: unknown };
    return {
      message: e.message,
      // XState's own words, when the message was put in the user's names (user-names.ts): shown on hover.
      ...(typeof e.rawMessage === "string" ? { raw: e.rawMessage } : {}),
      ...(typeof e.code === "string" ? { code: e.code } : {}),
      ...(typeof e.request === "string" ? { request: e.request } : {}),
      ...(typeof e.key === "string" ? { key: e.key } : {}),
    };
  }
  return { message: typeof error === "string" ? error : JSON.stringify(jsonSafe(error)) ?? String(error) };
}
