// Whether a harness reporter is listening: report payloads are built only then, so a run outside the
// harness (a test runner, a benchmark) pays nothing for them.
import { REPORTER_KEY } from "../shared/report";

export function reporterInstalled(): boolean {
  return typeof (globalThis as Record<symbol, unknown>)[REPORTER_KEY] === "function";
}
