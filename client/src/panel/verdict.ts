// A run's one verdict (RunVerdict): whether the thing a user ran passed, apart from the rest of the file
// (a lens on one runSeam call in an eval file runs the whole file, and "seam ✓ · file ✗" is the truthful
// answer when another test of the file failed), and how many results ended in error. The panel's header
// and Tests section, the lens title, the Testing view and the status bar all say what verdictOf says.
// Pure.
//
// The subject (the call a lens sits on, or everything a generated program did) failed when
//   - one of its results ended in error (an invalid transition, a thrown executor, a dry script queue:
//     the runtime reports `status: "error"` / `error`), or
//   - a failure belongs to it: a failed assertion or uncaught error in the same node:test test, or — in
//     top-level code — at or after its line and before the next reported call of the file, or
//   - for a generated program, anything failed at all (nothing else runs in it).
import type { FailureInfo, HarnessEvent, RunStatus, RunVerdict } from "@agent-lens/protocol";

type ResultEvent = Extract<HarnessEvent, { type: "result" }>;
type EndEvent = Extract<HarnessEvent, { type: "end" }>;

export interface SubjectInput {
  events: readonly HarnessEvent[];
  /** The results the view is about (see selectResults). */
  results: readonly ResultEvent[];
  /** The lens's own call (file, 1-based line); absent for a generated program. */
  focus?: { file: string; line: number };
  /** A generated program: every failure is the subject's. */
  generated: boolean;
  /** selectResults found nothing at the focus and fell back to the whole file. */
  fellBack: boolean;
}

/** A result that ended in error by its own account (`status: "error"` or an `error`). */
export function isErrored(result: ResultEvent): boolean {
  const data = result.data as { status?: unknown; error?: unknown } | null | undefined;
  return !!data && typeof data === "object" && (data.status === "error" || (data.error !== undefined && data.error !== null));
}

export function fileStatusOf(events: readonly HarnessEvent[]): RunStatus {
  const end = events.find((e): e is EndEvent => e.type === "end");
  return end ? end.status : "running";
}

export function subjectStatus(input: SubjectInput): RunStatus {
  const file = fileStatusOf(input.events);
  if (file === "running") return input.results.some(isErrored) ? "failed" : "running";
  if (file === "cancelled") return "cancelled";
  if (!input.results.length || input.fellBack) return file;
  if (input.results.some(isErrored)) return "failed";
  if (input.generated) return file;
  return failuresOf(input).length ? "failed" : "passed";
}

/** The failures that belong to the subject's own call (see the header comment). */
export function failuresOf(input: SubjectInput): FailureInfo[] {
  const start = input.events.find((e): e is Extract<HarnessEvent, { type: "start" }> => e.type === "start");
  const scriptTest = start ? baseName(start.file) : undefined;
  // node:test tests the subject's results came from (a plain script's one "test" is the whole file).
  const tests = new Set(input.results.flatMap((r) => (r.test !== undefined && r.test !== scriptTest ? [r.test] : [])));
  const all: Array<{ test?: string; failure: FailureInfo }> = input.events.flatMap((e) => {
    if (e.type === "fail") return [{ test: e.test, failure: e.failure }];
    if (e.type === "test-end" && e.status === "failed" && e.failure) return [{ test: e.test, failure: e.failure }];
    return [];
  });
  if (tests.size) return all.filter((f) => f.test !== undefined && tests.has(f.test)).map((f) => f.failure);
  const focus = input.focus;
  if (!focus) return [];
  const lines = input.events.flatMap((e) => (e.type === "result" && e.callSite && samePath(e.callSite.file, focus.file) ? [e.callSite.line] : []));
  const last = Math.max(focus.line, ...input.results.flatMap((r) => (r.callSite && samePath(r.callSite.file, focus.file) ? [r.callSite.line] : [])));
  const next = Math.min(...lines.filter((l) => l > last), Number.POSITIVE_INFINITY);
  return all
    .map((f) => f.failure)
    .filter((f) => f.location && samePath(f.location.file, focus.file) && f.location.line >= focus.line && f.location.line < next);
}

function samePath(a: string, b: string): boolean {
  return a === b || a.replace(/\\/g, "/").toLowerCase() === b.replace(/\\/g, "/").toLowerCase();
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

const SYMBOL: Record<RunStatus, string> = { running: "…", passed: "✓", failed: "✗", timeout: "✗ timed out", cancelled: "cancelled", crashed: "✗ crashed" };

/** "seam ✓", "file ✗ timed out". */
export function verdictText(label: string, status: RunStatus): string {
  return `${label} ${SYMBOL[status]}`;
}

/** "passed", "timed out", "running…". */
export function statusText(status: RunStatus): string {
  return ({ running: "running…", passed: "passed", failed: "failed", timeout: "timed out", cancelled: "cancelled", crashed: "crashed" } as const)[status];
}

/** "1 result ended in error". */
export function erroredText(count: number): string {
  return `${count} result${count === 1 ? "" : "s"} ended in error`;
}

/** How many results each node:test test produced that ended in error (by test name). */
export function erroredByTest(events: readonly HarnessEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) if (e.type === "result" && e.test !== undefined && isErrored(e)) counts.set(e.test, (counts.get(e.test) ?? 0) + 1);
  return counts;
}

export interface VerdictInput extends SubjectInput {
  /** What the run is about ("seam", "explore paths", "turns"); absent for a run of a whole file. */
  subject?: string;
}

/** The run's one verdict (see the header comment). */
export function verdictOf(input: VerdictInput): RunVerdict {
  const file = fileStatusOf(input.events);
  const erroredResults = input.events.filter((e): e is ResultEvent => e.type === "result" && isErrored(e)).length;
  const subject = input.subject && (input.focus || input.generated) ? { label: input.subject, status: subjectStatus(input) } : undefined;
  const verdict: RunVerdict = { status: subject?.status ?? file, erroredResults, text: "" };
  if (subject) verdict.subject = subject;
  if (!input.generated || !subject) verdict.file = file;
  verdict.text = verdictLine(verdict);
  return verdict;
}

/** "seam ✗", "seam ✓ · file ✗", "seam ✗ · file ✓ (1 result ended in error)", "passed · 1 result ended in error". */
function verdictLine(v: RunVerdict): string {
  // A file that passed while a result ended in error says so; a failed file is red already.
  const errored = v.erroredResults && v.file === "passed" ? erroredText(v.erroredResults) : "";
  if (!v.subject) return `${statusText(v.file ?? v.status)}${errored ? ` · ${errored}` : ""}`;
  const subject = verdictText(v.subject.label, v.subject.status);
  if (v.file === undefined) return subject;
  return `${subject} · ${verdictText("file", v.file)}${errored ? ` (${errored})` : ""}`;
}
