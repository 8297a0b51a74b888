// "Run ×N" in the Testing view, without VS Code types: N runs of a file add up (the CLI's --repeat rules,
// shared/repeats/summary.ts) to a pass rate per test with its 95% Wilson interval, where the runs
// ended, and passed / failed / flaky; a file whose first run made no live model call is run once (the others
// would say the same). Each summary becomes one result of its test item.
import type { HarnessEvent, RepeatSummary } from "@agent-lens/protocol";
import { deterministicRun, summarize, type RepeatRun } from "@agent-lens/repeats/summary";
import { attributeResults } from "../panel/attribution";
import { matchTest, type FlatTest } from "./test-model";

type ResultEvent = Extract<HarnessEvent, { type: "result" }>;

/** One run of a file, from its events. */
export function repeatRunOf(file: string, events: readonly HarnessEvent[]): RepeatRun {
  const end = events.find((e) => e.type === "end");
  return {
    file,
    status: end?.type === "end" ? end.status : "crashed",
    tests: events.flatMap((e) => (e.type === "test-end" ? [{ test: e.test, status: e.status, ...(e.failure ? { failure: { message: e.failure.message } } : {}) }] : [])),
    failures: events.flatMap((e) => (e.type === "fail" && e.test === undefined ? [{ message: e.failure.message }] : [])),
    results: attributeResults(events).filter((e): e is ResultEvent => e.type === "result"),
  };
}

/** Whether the runs after the first may be skipped: it made no live model call and ended by itself. */
export const needsOneRun = (first: RepeatRun): boolean => deterministicRun(first);

interface RepeatOutcome {
  /** The item: a test's id, or the file's (a plain script; runs that failed outside any test). */
  id: string;
  status: "passed" | "failed" | "skipped";
  flaky: boolean;
  /** "7/10 passed (70%, 95% interval 39.7–89.2%)", then where the runs ended. */
  text: string;
  /** A failed or flaky test's first failure. */
  failure?: string;
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** "7/10 passed (70%, 95% interval 39.7–89.2%) · 7/10 reached answered, 3/10 reached escalated". */
function describeRepeat(s: RepeatSummary): string {
  if (s.deterministic) return `${s.passed === s.runs ? "passed" : "failed"} · deterministic (no live model call): ran once`;
  const rate = `${s.passed}/${s.runs} passed (${pct(s.passRate)}, 95% interval ${pct(s.interval[0])}–${pct(s.interval[1])})`;
  const ends = s.ends.length ? ` · ${s.ends.map((e) => `${e.count}/${s.runs} reached ${e.end}`).join(", ")}` : "";
  return `${s.status === "flaky" ? "flaky · " : ""}${rate}${ends}`;
}

/** The outcome of each test item over a file's runs (in order). */
export function repeatOutcomes(fileId: string, file: string, tests: readonly FlatTest[], runs: RepeatRun[]): RepeatOutcome[] {
  const summaries = summarize(file, runs, undefined, runs.length === 1 && needsOneRun(runs[0]!));
  return summaries.map((s) => {
    const id = tests.length && s.test ? matchTest(tests, s.test)?.id ?? fileId : fileId;
    const status = s.status === "skipped" ? "skipped" : s.status === "passed" ? "passed" : "failed";
    return { id, status, flaky: s.status === "flaky", text: describeRepeat(s), ...(s.failure && s.status !== "passed" ? { failure: s.failure } : {}) };
  });
}

/** N from the input box: a whole number from 1 to 1000, else why not. */
export function parseRepeatCount(text: string): number | string {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : "a whole number from 1 to 1000";
}
