// Durations: "24h", "2d", "90m", "1h30m", "30s", "500ms", or a number of milliseconds.
import type { Duration } from "./types";
import { DefinitionError } from "./errors";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** Milliseconds, or undefined when the value does not parse. */
export function tryParseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!text) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const m = PART.exec(text);
    if (!m || m.index !== at) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Math.round(total);
}

export function parseDuration(value: Duration, where = "duration"): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) {
    throw new DefinitionError("bad-duration", `${where}: ${JSON.stringify(value)} is not a duration (use "24h", "2d", "90m", "1h30m", "30s", "500ms" or a number of milliseconds).`);
  }
  return ms;
}
