// Durations: "30s", "5m", "24h", "3d", "1h30m", "500ms" (one or more <number><unit>, no spaces).

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** Milliseconds, or undefined when the text does not parse. */
export function tryParseDuration(value: unknown): number | undefined {
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

/** Milliseconds; throws a TypeError naming `where` when the text does not parse (definitions are checked earlier, with FlowConfigurationError). */
export function parseDuration(value: unknown, where = "duration"): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) throw new TypeError(`${where}: ${JSON.stringify(value)} is not a duration; write a number and a unit: "30s", "5m", "24h" or "3d".`);
  return ms;
}
