// Durations as flows write them: "24h", "2d", "90m", "1h30m", "30s", "500ms", or a number of
// milliseconds. A string is one or more `<number><unit>` parts (units ms, s, m, h, d; a number may have
// a decimal part, "1.5h"), with no spaces between parts; surrounding spaces are ignored. This is the
// grammar our @falai/agent runtime accepts (runtime/src/falai/duration.ts), so a finding here is a
// definition the runtime would refuse.
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** Milliseconds, or undefined when the value is not a duration. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  const text = value.trim();
  if (text.length === 0) return undefined;
  let pos = 0;
  let total = 0;
  while (pos < text.length) {
    PART.lastIndex = pos;
    const m = PART.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = PART.lastIndex;
  }
  return Math.round(total);
}

/** A short English form for hovers: 5_400_000 → "1h 30m". */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const unit of ["d", "h", "m", "s", "ms"]) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      const n = unit === "ms" ? rest : Math.floor(rest / size);
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return parts.join(" ");
}
