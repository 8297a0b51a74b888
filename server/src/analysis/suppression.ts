// Suppression comments: `// agent-lens-ignore-next-line` (every code), or followed by one or more codes
// separated by spaces or commas; anything after `--` is a free-text reason. Block comments work too.
import type { Finding } from "./types";
import { lineStartsOf } from "./ranges";

const DIRECTIVE = /(?:\/\/|\/\*)[ \t]*agent-lens-ignore-next-line\b([^\n\r]*)/g;

/** 0-based line → the codes suppressed on it ("all" when the comment names none). */
export type Suppressions = Map<number, Set<string> | "all">;

export function findSuppressions(text: string): Suppressions {
  const result: Suppressions = new Map();
  if (!text.includes("agent-lens-ignore-next-line")) return result;
  const starts = lineStartsOf(text);
  for (const match of text.matchAll(DIRECTIVE)) {
    let rest = match[1] ?? "";
    rest = rest.replace(/\*\/.*$/, "");
    const reason = rest.indexOf("--");
    if (reason >= 0) rest = rest.slice(0, reason);
    const codes = rest.split(/[\s,]+/).filter((c) => /^[a-z][a-z-]*$/.test(c));
    const line = lineOf(starts, match.index ?? 0) + 1;
    const prev = result.get(line);
    if (codes.length === 0 || prev === "all") result.set(line, "all");
    else result.set(line, new Set([...(prev ?? []), ...codes]));
  }
  return result;
}

export function isSuppressed(finding: Finding, suppressions: Suppressions): boolean {
  const entry = suppressions.get(finding.range.startLine);
  return entry === "all" || (entry !== undefined && entry.has(finding.code));
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
