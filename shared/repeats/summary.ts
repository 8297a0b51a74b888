// What N runs of each test add up to (shared/protocol/repeats.ts): pass rate with its 95% Wilson interval,
// passed / failed / flaky, where the runs ended, and whether a file needed repeating at all. Pure.
import { payloadOf } from "@agent-lens/protocol/harness"; // not the index: it loads the LSP protocol
import type { RepeatSummary, ResultEvent } from "@agent-lens/protocol";

/** One run of a file, as far as repeats need it. */
export interface RepeatRun {
  file: string;
  status: string;
  tests: Array<{ test: string; status: string; failure?: { message: string } }>;
  /** File-level failures (not tied to a test). */
  failures: Array<{ message: string }>;
  results: ResultEvent[];
}

const Z = 1.959963984540054; // the 97.5th percentile of the normal distribution

/** The Wilson score interval of `passed` out of `runs` at 95% (rounded to 4 places). */
function wilson(passed: number, runs: number): [number, number] {
  if (runs === 0) return [0, 1];
  const p = passed / runs;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (Z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs))) / (1 + z2 / runs);
  const round = (x: number) => Math.round(x * 10000) / 10000;
  return [round(Math.max(0, centre - half)), round(Math.min(1, centre + half))];
}

/** A report made no live model call: no call at all, or every call answered by a script (runSeam's
 *  scripts, simulateAgent's script); the explore / reach / trajectory helpers call no model. An executor, a
 *  candidate or a falai provider may be a live model (the CLI cannot tell a scripted one from a live one),
 *  so a call through one counts as live, and so does a report the channel could not carry. */
function deterministicReport(r: ResultEvent): boolean {
  switch (r.kind) {
    case "seam":
      return payloadOf(r)?.calls.every((c) => c.source === "script") ?? false;
    case "simulate":
    case "explore":
    case "canReach":
    case "trajectory":
      return true;
    case "agent":
      return (payloadOf(r)?.usage as { modelCalls?: number } | undefined)?.modelCalls === 0;
    case "turn":
      return payloadOf(r)?.llmCalls === 0;
    default:
      return false;
  }
}

/** A file whose run made no live model call gives the same result every time: it is not repeated. Only a
 *  run that ended by itself (passed or failed) can tell: a cancelled, timed-out or crashed one may have
 *  stopped before its calls. */
export function deterministicRun(run: RepeatRun): boolean {
  return (run.status === "passed" || run.status === "failed") && run.results.every(deterministicReport);
}

/** Where a report left its run: a stately run's last state (and its status when not done), a turn's last
 *  outcome line. */
function endOf(r: ResultEvent | undefined): string | undefined {
  if (!r) return undefined;
  if (r.kind === "seam" || r.kind === "agent" || r.kind === "simulate") {
    const d = payloadOf(r);
    if (!d) return undefined;
    const path = "before" in d ? [...(d.before?.statePath ?? []), ...(d.after?.statePath ?? [])] : d.path ?? [];
    const state = path.at(-1) ?? "(no state)";
    return d.status === "done" ? state : `${state} (${d.status})`;
  }
  if (r.kind === "turn") {
    const last = (payloadOf(r)?.outcomes ?? []).at(-1) as { flowId?: string; stepId?: string; kind?: string; status?: string; code?: string } | undefined;
    return last ? `${last.flowId ?? "-"}/${last.stepId ?? "-"} ${last.kind}/${last.status}${last.code ? ` ${last.code}` : ""}` : "(no outcome)";
  }
  return undefined;
}

/** A run's reports by the test they came from (run-record.ts names node:test reports by their test). */
function reportsByTest(run: RepeatRun): Map<string, ResultEvent[]> {
  const out = new Map<string, ResultEvent[]>();
  for (const r of run.results) if (r.test !== undefined) out.set(r.test, [...(out.get(r.test) ?? []), r]);
  return out;
}

/** The summary of each test over the runs of one file (`runs` in order). `passRate`: the rate a test needs
 *  for the exit code, undefined: every run must pass. */
export function summarize(file: string, runs: RepeatRun[], passRate: number | undefined, deterministic: boolean): RepeatSummary[] {
  const names: string[] = [];
  for (const run of runs) for (const t of run.tests) if (!names.includes(t.test)) names.push(t.test);
  const tallies = new Map(names.map((n) => [n, { passed: 0, failed: 0, ends: new Map<string, number>(), failure: undefined as string | undefined }]));
  const fileTally = { passed: 0, failed: 0, ends: new Map<string, number>(), failure: undefined as string | undefined };
  for (const run of runs) {
    const byTest = reportsByTest(run);
    for (const name of names) {
      const tally = tallies.get(name)!;
      const t = run.tests.find((x) => x.test === name);
      if (t?.status === "skipped") continue;
      if (t?.status === "passed") tally.passed++;
      else {
        tally.failed++;
        tally.failure ??= t?.failure?.message ?? `did not run: the file ended ${run.status}`;
      }
      const end = endOf(byTest.get(name)?.at(-1));
      if (end) tally.ends.set(end, (tally.ends.get(end) ?? 0) + 1);
    }
    // the file itself: runs that went wrong outside any test (a crash, a timeout, a lost report)
    if (run.failures.length || (run.status !== "passed" && run.tests.every((t) => t.status !== "failed"))) {
      fileTally.failed++;
      fileTally.failure ??= run.failures[0]?.message ?? `the file ended ${run.status}`;
    } else fileTally.passed++;
  }
  const summary = (test: string, t: typeof fileTally): RepeatSummary => {
    const counted = t.passed + t.failed;
    const rate = counted ? Math.round((t.passed / counted) * 10000) / 10000 : 1;
    return {
      type: "repeat", file, test, runs: counted, passed: t.passed, failed: t.failed, passRate: rate, interval: wilson(t.passed, counted),
      status: counted === 0 ? "skipped" : t.failed === 0 ? "passed" : t.passed === 0 ? "failed" : "flaky",
      ends: [...t.ends].map(([end, count]) => ({ end, count })).sort((a, b) => b.count - a.count || a.end.localeCompare(b.end)),
      ...(deterministic ? { deterministic: true as const } : {}),
      ...(t.failure !== undefined ? { failure: t.failure } : {}),
      ok: passRate === undefined ? t.failed === 0 : rate >= passRate,
    };
  };
  const out = names.map((n) => summary(n, tallies.get(n)!));
  if (fileTally.failed) out.push(summary("", fileTally));
  return out;
}
