// `agent-lens run --repeat N`: the summaries of each file's runs (shared/repeats/summary.ts) and how the CLI says them —
// a line per test (PASS / FAIL / FLAKY, passed/runs, the rate with its 95% interval, where the runs ended),
// the closing line, and with --json one `{ "type": "repeat" }` line per test.
import { relative } from "node:path";
import type { RepeatSummary } from "@agent-lens/protocol";
import type { FileRecord } from "../run-record";
import { deterministicRun, summarize, type RepeatRun } from "@agent-lens/repeats/summary";

function repeatRunOf(r: FileRecord): RepeatRun {
  return {
    file: r.file,
    status: r.result.status,
    tests: r.result.tests.map((t) => ({ test: t.test, status: t.status, ...(t.failure ? { failure: { message: t.failure.message } } : {}) })),
    failures: r.result.failures.map((f) => ({ message: f.message })),
    results: r.results,
  };
}

/** The files whose first run made no live model call (they are not run again). */
export function deterministicFiles(records: FileRecord[]): Set<string> {
  return new Set(records.filter((r) => deterministicRun(repeatRunOf(r))).map((r) => r.file));
}

/** Every test's summary, file by file, from all runs (`deterministic`: files that ran once on purpose). */
export function repeatSummaries(records: FileRecord[], passRate: number | undefined, deterministic: Set<string>): RepeatSummary[] {
  const byFile = new Map<string, FileRecord[]>();
  for (const r of records) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  return [...byFile.keys()].sort().flatMap((file) => summarize(file, byFile.get(file)!.sort((a, b) => (a.repeat ?? 0) - (b.repeat ?? 0)).map(repeatRunOf), passRate, deterministic.has(file)));
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function formatRepeats(summaries: RepeatSummary[], root: string, repeat: number, passRate: number | undefined): string {
  const lines = [`Repeats (--repeat ${repeat}${passRate !== undefined ? `, --pass-rate ${passRate}` : ""}; the interval is the 95% Wilson score interval)`];
  for (const s of summaries) {
    const label = s.status === "flaky" ? "FLAKY" : s.status === "passed" ? " PASS" : s.status === "skipped" ? " SKIP" : " FAIL";
    const name = `${relative(root, s.file) || s.file}${s.test ? ` > ${s.test}` : " (the file itself)"}`;
    const rate = s.runs ? `${s.passed}/${s.runs} passed (${pct(s.passRate)}, ${pct(s.interval[0])}–${pct(s.interval[1])})` : "skipped in every run";
    const ends = s.ends.length ? `; ${s.ends.map((e) => `${e.count}/${s.runs} reached ${e.end}`).join(", ")}` : "";
    const verdict = passRate !== undefined && s.status !== "passed" ? (s.ok ? " — meets --pass-rate" : " — under --pass-rate") : "";
    lines.push(`${label} ${name}: ${rate}${ends}${s.deterministic ? " — deterministic (no live model call): ran once" : ""}${verdict}`);
    if (s.failure && s.status !== "passed") lines.push(`      first failure: ${s.failure.split("\n")[0]}`);
  }
  const count = (status: string) => summaries.filter((s) => s.status === status && s.test !== "").length;
  lines.push(`${count("passed")} passed, ${count("flaky")} flaky, ${count("failed")} failed${count("skipped") ? `, ${count("skipped")} skipped` : ""} (tests over up to ${repeat} runs each)`);
  return `${lines.join("\n")}\n`;
}
