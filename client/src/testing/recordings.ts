// Recordings in the Testing view, without VS Code types: which models a Record run will call (as far as
// anything knows: the file's last run, its recording), the confirmation that says so, the test a Record lens
// on a call records, and the drift a replay reported, as a diagnostic at the call that drifted with what
// "Re-record this test" needs.
import type { DriftInfo, FailureInfo, HarnessEvent, SourceLocation } from "@agent-lens/protocol";
import { matchTest, type FlatTest } from "./test-model";

/** The models named by a run's model calls, in the order they first came. */
export function modelsOfRun(events: readonly HarnessEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) if (e.type === "model-call" && e.call.model && !out.includes(e.call.model)) out.push(e.call.model);
  return out;
}

/** The models a recording file's calls name (its text; nothing when it is not a recording). */
export function modelsOfRecording(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const file = JSON.parse(text) as { tests?: Record<string, { calls?: Array<{ model?: unknown }> }> };
    const out: string[] = [];
    for (const test of Object.values(file.tests ?? {})) for (const call of test.calls ?? []) if (typeof call.model === "string" && !out.includes(call.model)) out.push(call.model);
    return out;
  } catch {
    return [];
  }
}

interface RecordTarget {
  /** The eval file (workspace-relative, as shown). */
  label: string;
  /** The tests asked for (empty: the whole file). */
  tests: string[];
  /** What its last run and its recording say it calls (empty: unknown). */
  models: string[];
}

const list = (xs: string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);

/** The modal's question: what will be recorded and which models will be called. */
export function recordQuestion(targets: RecordTarget[]): string {
  const what = targets.map((t) => (t.tests.length ? `${t.tests.map((n) => `"${n}"`).join(", ")} in ${t.label}` : t.label));
  const known = [...new Set(targets.flatMap((t) => t.models))];
  const unknown = targets.some((t) => !t.models.length);
  const models = known.length
    ? `${list(known.map((m) => `"${m}"`))}${unknown ? " and the models the other files configure" : ""} (as the last run and the recording name them)`
    : `the models ${targets.length > 1 ? "these files configure" : "this file configures"}`;
  return `Record ${list(what)}? Every model call goes live to ${models} — this may cost money — and the answers are written to __recordings__ beside the file${targets.length > 1 ? "s" : ""}.`;
}

/** A drift as the editor shows it: where, what, and the test to record again. */
export interface DriftMark {
  /** The test's item id (undefined: the drift is the file's, outside any test). */
  testId?: string;
  /** The harness's name of the test (what Re-record runs). */
  test: string;
  /** 1-based, as harness locations. */
  location?: SourceLocation;
  message: string;
  /** The recording file (absolute). */
  recording: string;
}

/** The drifts of one file's run, each at the call that drifted (else where its test failed, else the test). */
export function driftMarks(tests: readonly FlatTest[], events: readonly HarnessEvent[]): DriftMark[] {
  const failures = new Map<string, FailureInfo>();
  for (const e of events) if (e.type === "test-end" && e.failure) failures.set(e.test, e.failure);
  return events.flatMap((e) => {
    if (e.type !== "drift") return [];
    const drift: DriftInfo = e.drift;
    const t = matchTest(tests, e.test);
    const diff = drift.diff?.length ? `\n${drift.diff.join("\n")}` : "";
    const location = drift.callSite ?? failures.get(e.test)?.location ?? (t ? { file: "", line: t.line + 1, column: 1 } : undefined);
    return [{ ...(t ? { testId: t.id } : {}), test: e.test, ...(location ? { location } : {}), message: `${drift.message}${diff}`, recording: drift.recording }];
  });
}

/** Node's --test-name-pattern for the asked tests of a node:test file: each test's own name, whole. Node 20
 *  matches a pattern against a test's own name or a suite's around it (not the path), so a test named like
 *  another runs too. Undefined: run the whole file (a plain script, or the file itself was asked for). */
export function namePatternsFor(tests: readonly FlatTest[], wanted: ReadonlySet<string>, fileId: string): string[] | undefined {
  if (!tests.length || wanted.has(fileId)) return undefined;
  const names = tests.filter((t) => wanted.has(t.id)).map((t) => t.path.at(-1)!);
  return names.length ? [...new Set(names)].map((n) => `^${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : undefined;
}

/** The test a Record lens on this 0-based line records: the innermost test or suite whose declaration spans
 *  it (undefined: the line is outside every test, so the whole file is recorded). */
export function testAtLine(tests: readonly FlatTest[], line: number): FlatTest | undefined {
  const around = tests.filter((t) => t.test.range.startLine <= line && line <= t.test.range.endLine);
  return around.reduce<FlatTest | undefined>((inner, t) => (!inner || t.path.length > inner.path.length ? t : inner), undefined);
}
