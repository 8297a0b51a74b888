// The one place the extension talks to the harness (runtime/src/harness, bundled into the extension).
// Everything else in the client sees only this small interface.
import { runEvalFile } from "../../../runtime/src/harness";
import type { HarnessEvent } from "../../../runtime/src/harness/events";

export type RuntimeMode = "auto" | "bundled" | "workspace";

export interface HarnessRunOptions {
  /** The file to run (absolute). For a generated entry: the file the source was written to. */
  file: string;
  /** The workspace folder (child cwd; where the workspace's own library copies are looked up). */
  cwd: string;
  timeoutMs: number;
  runtime: RuntimeMode;
  signal: AbortSignal;
  onEvent(event: HarnessEvent): void;
}

export type EndEvent = Extract<HarnessEvent, { type: "end" }>;

/** Runs one file through the harness; resolves with its `end` event (never rejects for user-code failures). */
export type RunFile = (options: HarnessRunOptions) => Promise<EndEvent>;

export const runFile: RunFile = async (options) => {
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
