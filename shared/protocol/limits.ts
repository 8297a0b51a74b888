// The limits a run takes (time, heap and, optionally, memory), checked where they come in: `agent-lens run` refuses a bad
// value with exit 2, runEvalFile ends the run as failed with the same message. A Node timer holds at
// most 2^31 - 1 ms (about 24.8 days); a larger value silently becomes 1 ms, so the time limit stops at
// 24 h, which no eval needs to exceed. The settings clamp `agentLens.run.timeoutSeconds` to the same range.
export const MAX_TIMEOUT_SECONDS = 86_400;
const MIN_TIMEOUT_SECONDS = 0.001;
const MIN_HEAP_MB = 16;
/** --max-old-space-size of a run's child unless the caller says otherwise. */
export const DEFAULT_HEAP_MB = 2048;
/** 1 TiB: far above any machine's memory; the point is a whole number that V8 takes as it is. */
const MAX_HEAP_MB = 1_048_576;

export const TIMEOUT_RULE = `a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (24 h)`;
export const HEAP_RULE = `a whole number of MB from ${MIN_HEAP_MB} to ${MAX_HEAP_MB}`;

export function validTimeoutMs(ms: number): boolean {
  return typeof ms === "number" && Number.isFinite(ms) && ms >= MIN_TIMEOUT_SECONDS * 1000 && ms <= MAX_TIMEOUT_SECONDS * 1000;
}

export function validHeapMb(mb: number): boolean {
  return typeof mb === "number" && Number.isInteger(mb) && mb >= MIN_HEAP_MB && mb <= MAX_HEAP_MB;
}

/** The memory limit (--max-rss, off unless given) takes the same values as the heap limit. */
export function validMaxRssMb(mb: number): boolean {
  return validHeapMb(mb);
}

/** Why the limits of a run are not usable (one sentence), or undefined when they are. */
export function limitsProblem(timeoutMs: number, heapMb: number, maxRssMb?: number): string | undefined {
  if (!validTimeoutMs(timeoutMs)) return `the time limit must be ${TIMEOUT_RULE}, got ${String(timeoutMs)} ms`;
  if (!validHeapMb(heapMb)) return `the heap limit must be ${HEAP_RULE}, got ${String(heapMb)}`;
  if (maxRssMb !== undefined && !validMaxRssMb(maxRssMb)) return `the memory limit must be ${HEAP_RULE}, got ${String(maxRssMb)}`;
  return undefined;
}

/** A command-line number: plain decimal digits (no exponent, hex, sign or spaces), else NaN. */
export function parseDecimal(text: string, allowFraction: boolean): number {
  return (allowFraction ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : Number.NaN;
}
