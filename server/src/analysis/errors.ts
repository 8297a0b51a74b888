// Analysis never throws to its caller: every analyzer, check and output step is guarded. Guarded failures
// are still bugs, so they are reported here (the fuzz suite listens and fails on any).
export type AnalysisErrorListener = (error: unknown, where: string) => void;

let listener: AnalysisErrorListener | undefined;

export function setAnalysisErrorListener(fn: AnalysisErrorListener | undefined): void {
  listener = fn;
}

export function reportAnalysisError(error: unknown, where: string): void {
  try {
    listener?.(error, where);
  } catch {
    // a listener must not break analysis
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
