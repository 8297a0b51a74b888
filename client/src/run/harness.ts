// The one place the extension starts a harness run (runtime/src/harness, bundled into the extension): the
// run queue (queue.ts) holds the function made here and hands it to every job, so lenses, commands and the
// Testing view all start their runs here. With warm children, a run takes the child started behind the
// previous run when it matches the file exactly (@agent-lens/harness's WarmChildren), else starts cold.
import { runEvalFile, type FileRunResult, type WarmChildren } from "@agent-lens/harness";
import type { EndEvent } from "@agent-lens/protocol";
import type { StartRun } from "./queue";

export interface HarnessRunnerOptions {
  /** Where runs take their process from, and start the next one behind them. */
  warm?: WarmChildren;
  /** One line per run: how its process started and where the time went. */
  log?: (line: string) => void;
}

export function harnessRunner(runner: HarnessRunnerOptions = {}): StartRun {
  return async (options) => {
    let end: EndEvent | undefined;
    const run = runEvalFile({
      file: options.file,
      workspace: options.cwd,
      timeoutMs: options.timeoutMs,
      runtime: options.runtime,
      ...(options.recordings ? { recordings: options.recordings } : {}),
      ...(options.envFile ? { envFile: options.envFile } : {}),
      ...(options.testNamePatterns?.length ? { testNamePatterns: options.testNamePatterns } : {}),
      signal: options.signal,
      warm: runner.warm,
      onEvent: (event) => {
        if (event.type === "end") end = event;
        options.onEvent(event);
      },
    });
    const result = await run.result;
    runner.log?.(describeRun(result, options.label));
    if (!end) {
      // The harness always ends with an `end` event; keep the contract even if it did not.
      end = { type: "end", file: options.file, status: result.status, durationMs: result.durationMs, summary: result.summary };
      options.onEvent(end);
    }
    return end;
  };
}

/** A cold start for every run (no warm children). */
export const startHarnessRun: StartRun = harnessRunner();

/** "harness: email-agent.test.ts passed in 84 ms (bundle cached 3 ms, warm child)"; a generated program is
 *  named by its label ("keyless seam run of summarize"), never by its temporary file. */
function describeRun(result: FileRunResult, label?: string): string {
  const name = label ?? result.file.split(/[\\/]/).pop();
  const bundle = `bundle ${result.bundle.cached ? "cached" : "built"} ${Math.round(result.bundle.durationMs)} ms`;
  const child = !result.process ? "no process" : result.process.warm
    ? `warm child, started ${Math.round(result.process.headStartMs)} ms before`
    : `cold start${result.process.note ? ` (${result.process.note})` : ""}`;
  return `harness: ${name} ${result.status} in ${Math.round(result.durationMs)} ms (${bundle}, ${child})`;
}
