// `agent-lens run --repeat N` (issue 27): what N runs of a test add up to. Printed by the CLI's report and,
// with --json, as one `{ "type": "repeat", ... }` line per test after the events (each event line then
// carries `run`: 1 … N). Plain data, self-contained.

export type RepeatStatus = "passed" | "failed" | "flaky" | "skipped";

export interface RepeatSummary {
  type: "repeat";
  /** The eval file (absolute). */
  file: string;
  /** The test ("suite > test"), or the file's base name for a plain script; "" stands for the file itself
   *  (runs that failed outside any test: a crash, a timeout, a process left running). */
  test: string;
  /** Runs counted (skipped ones are not); 1 when the file was judged deterministic and ran once. */
  runs: number;
  passed: number;
  failed: number;
  /** passed / runs. */
  passRate: number;
  /** The 95% Wilson score interval of the pass rate, [low, high]. */
  interval: [number, number];
  /** Passed every run, failed every run, both passed and failed: flaky; skipped in every run: skipped. */
  status: RepeatStatus;
  /** Where the test's runs ended (its last report's final state, or a turn's last outcome) and how often,
   *  most frequent first: "7/10 reached needsMoreInfo". */
  ends: Array<{ end: string; count: number }>;
  /** The file's runs made no live model call (every call scripted or replayed, or none): it ran once. */
  deterministic?: true;
  /** The first failure message, when a run failed. */
  failure?: string;
  /** Whether the test counts as passing for the exit code: every run passed, or the pass rate reached
   *  --pass-rate. */
  ok: boolean;
}
