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
