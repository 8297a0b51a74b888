// Small text helpers of the results panel's renderer: section titles, a turn's message / outcome / schedule
// text, JSON shown pretty or compact, durations, clock times. Pure strings, no DOM.
import type { ResultView } from "@agent-lens/protocol";

export function isEmpty(v: ResultView): boolean {
  return !v.modelCalls?.length && !v.seams.length && !v.turns.length && !v.agentRuns.length && !v.other.length && !v.errors.length && !v.tests.length && !v.console.length;
}

export function otherTitle(kind: string): string {
  return ({ explore: "Explore paths", canReach: "canReach", trajectory: "matchesTrajectory", request: "Request" } as Record<string, string>)[kind] ?? kind;
}

export function messageText(m: Record<string, unknown> | undefined): string {
  if (!m) return "";
  for (const k of ["text", "content", "message"]) if (typeof m[k] === "string") return m[k] as string;
  return compact(m);
}

export function outcomeDetail(o: Record<string, unknown> | undefined): string {
  if (!o) return "";
  const parts: string[] = [];
  if (typeof o.detail === "string") parts.push(o.detail);
  if (typeof o.next === "string") parts.push(`→ ${o.next}`);
  if (typeof o.until === "string") parts.push(`until ${o.until}`);
  if (typeof o.llmCalls === "number") parts.push(`${o.llmCalls} call${o.llmCalls === 1 ? "" : "s"}`);
  if (typeof o.message === "string") parts.push(o.message);
  return parts.join(" · ");
}

export function dueText(s: Record<string, unknown> | undefined): string {
  if (!s) return "";
  for (const k of ["at", "due", "dueAt", "when", "time"]) {
    const v = s[k];
    if (typeof v === "string") return v;
    if (typeof v === "number") return new Date(v).toISOString();
  }
  return compact(s);
}

export function pretty(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function compact(value: unknown): string {
  try {
    const s = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
    return s.length > 160 ? `${s.slice(0, 157)}…` : s;
  } catch {
    return String(value);
  }
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function summarizeRuntime(runtime: Record<string, string>): string {
  const values = new Set(Object.values(runtime));
  return values.size === 1 ? [...values][0] : Object.entries(runtime).map(([k, v]) => `${k} ${v}`).join(", ");
}

export function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** "14:02:09": when a recent entry was last updated (runs of the same lens read apart by it). */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}
