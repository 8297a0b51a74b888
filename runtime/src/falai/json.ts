// JSON helpers for values that come from user code or a provider (may hold cycles, BigInts, functions).

/** A JSON-safe copy, or the value's string form when it cannot be serialised. */
export function jsonSafe(value: unknown): unknown {
  try {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

/** JSON text that never throws. */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value ?? null) ?? "null";
  } catch {
    return JSON.stringify(String(value));
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
