// The one place the extension starts a harness run (runtime/src/harness, bundled into the extension): the
// run queue (queue.ts) holds this function and hands it to every job, so lenses, commands and the Testing
// view all start their runs here.
import { runEvalFile } from "@agent-lens/harness";
import type { EndEvent } from "@agent-lens/protocol";
import type { StartRun } from "./queue";

export const startHarnessRun: StartRun = async (options) => {
  let end: EndEvent | undefined;
  const run = runEvalFile({
    file: options.file,
    workspace: options.cwd,
    timeoutMs: options.timeoutMs,
    runtime: options.runtime,
    signal: options.signal,
    onEvent: (event) => {
      if (event.type === "end") end = event;
      options.onEvent(event);
    },
  });
  const result = await run.result;
  if (!end) {
    // The harness always ends with an `end` event; keep the contract even if it did not.
    end = { type: "end", file: options.file, status: result.status, durationMs: result.durationMs, summary: result.summary };
    options.onEvent(end);
  }
  return end;
};
