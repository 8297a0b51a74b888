// Durations as flows write them: "24h", "2d", "90m", "1h30m", "30s", "500ms", "1w", or a number of
// milliseconds. A string is one or more `<number><unit>` parts, units from largest to smallest, each
// at most once, no spaces; numbers may have a decimal part ("1.5h"). Anything else does not parse.
const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const UNIT_ORDER = ["w", "d", "h", "m", "s", "ms"];
const PART = /(\d+(?:\.\d+)?)(ms|w|d|h|m|s)/y;

/** Milliseconds, or undefined when the value is not a duration. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (value.length === 0) return undefined;
  let pos = 0;
  let total = 0;
  let lastRank = -1;
  while (pos < value.length) {
    PART.lastIndex = pos;
    const m = PART.exec(value);
    if (!m) return undefined;
    const rank = UNIT_ORDER.indexOf(m[2]);
    if (rank <= lastRank) return undefined;
    lastRank = rank;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = PART.lastIndex;
  }
  return total;
}

/** A short English form for hovers: 90_000_000 → "1d 1h". */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const unit of UNIT_ORDER) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      const n = unit === "ms" ? rest : Math.floor(rest / size);
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return parts.join(" ");
}
