// Analysis never throws to its caller: every analyzer, check and output step is guarded. Guarded failures
// are still bugs, so they are reported here (the fuzz suite listens and fails on any), and those that
// happen while a file's findings are computed are collected for that file: it then gets an
// `analysis-failed` finding instead of a quiet gap (see analysis-failure.ts).
export type AnalysisErrorListener = (error: unknown, where: string) => void;

export interface AnalysisFailure {
  where: string;
  error: unknown;
}

let listener: AnalysisErrorListener | undefined;
/** The failures of the file analyses under way (innermost last). */
const collectors: AnalysisFailure[][] = [];

export function setAnalysisErrorListener(fn: AnalysisErrorListener | undefined): void {
  listener = fn;
}

export function reportAnalysisError(error: unknown, where: string): void {
  collectors[collectors.length - 1]?.push({ error, where });
  try {
    listener?.(error, where);
  } catch {
    // a listener must not break analysis
  }
}

/** Runs `fn`, collecting every failure reported meanwhile (nested collections keep their own). */
export function collectingFailures<T>(fn: () => T): { result: T; failures: AnalysisFailure[] } {
  const failures: AnalysisFailure[] = [];
  collectors.push(failures);
  try {
    return { result: fn(), failures };
  } finally {
    collectors.pop();
  }
}

/** Runs every check on one subject; a check that throws is reported and the others still run. */
export function runGuarded<T, R>(checks: ReadonlyArray<(subject: T) => R[]>, subject: T, label: string): R[] {
  const out: R[] = [];
  for (const check of checks) {
    try {
      out.push(...check(subject));
    } catch (error) {
      reportAnalysisError(error, `${label} ${check.name}`); // one check failing must not hide the others
    }
  }
  return out;
}
