// One eval file of a Testing view run, as a job on the one run queue: its tests are "enqueued" at once,
// "started" when the file takes a slot, and each gets its result from the harness events; a file
// cancelled while queued never starts and its tests are skipped. Pure: the Testing view comes in through
// the sink (ids are the test ids of test-model.ts), VS Code through the host.
import type { AgentGraph, HarnessEvent, ResultView } from "@agent-lens/protocol";
import { buildResultView } from "../panel/view-model";
import { reportedFlowIds, withTimeout } from "../run/lens-job";
import type { WorkspaceQueries } from "../run/queries";
import type { JobHandle, RunQueue, StartOptions } from "../run/queue";
import type { RunSettings } from "../run/settings";
import { matchTest, outcomesOf, SEPARATOR, type FlatTest, type TestOutcome } from "./test-model";

export interface TestRunSink {
  enqueued(id: string): void;
  started(id: string): void;
  result(outcome: TestOutcome): void;
  skipped(id: string): void;
  output(text: string, id: string): void;
  /** The file's run is over: every event it sent (coverage, repeats and drift read them). */
  finished?(events: readonly HarnessEvent[]): void;
}

export interface FileRunHost {
  queue: RunQueue;
  queries: WorkspaceQueries;
  settingsFor(file: string): RunSettings;
  folderOf(file: string): string;
  log(line: string): void;
  newRunId(): number;
  /** A path for the log line (relative to the workspace in VS Code). */
  describe(file: string): string;
}

export interface EvalFileRequest {
  /** The file's test id (its URI) and path. */
  fileId: string;
  file: string;
  tests: readonly FlatTest[];
  /** The ids the user asked for (the file's own id runs all of it). */
  wanted: ReadonlySet<string>;
  /** Over the folder's settings: a Record run's mode, the tests a node:test file runs. */
  overrides?: Pick<StartOptions, "recordings" | "testNamePatterns">;
  /** The queue key's and the log's word for the run (default "Eval"). */
  label?: string;
}

/** The queue key of an eval file's Testing view run. */
export const testFileKey = (file: string) => `tests|${file}`;

export function enqueueEvalFile(host: FileRunHost, req: EvalFileRequest, sink: TestRunSink): JobHandle<ResultView> {
  const { fileId, file, tests, wanted } = req;
  const label = req.label ?? "Eval";
  // node:test files run whole; only what was asked for is reported (and the file itself).
  const reported = (id: string) => wanted.has(fileId) || wanted.has(id) || [...wanted].some((w) => id.startsWith(`${w}${w.includes("::") ? SEPARATOR : "::"}`));
  // A plain script is its own test; a node:test file is the sum of its tests (VS Code derives its state).
  const plain = tests.length === 0;
  const asked = plain ? [fileId] : tests.filter((t) => t.kind === "test" && reported(t.id)).map((t) => t.id);
  for (const id of asked) sink.enqueued(id);

  const handle = host.queue.enqueue<ResultView>({
    key: testFileKey(file),
    label: `${label} · ${host.describe(file)}`,
    onStart: () => {
      if (plain) sink.started(fileId);
    },
    run: async (start, signal) => {
      const events: HarnessEvent[] = [];
      const started = Date.now();
      const graphs = host.queries.evalGraphs(file);
      await start({
        file, cwd: host.folderOf(file), signal, ...host.settingsFor(file), ...req.overrides,
        onEvent: (e) => {
          events.push(e);
          if (e.type === "test-start") {
            const t = matchTest(tests, e.test, e.location?.line, e.path);
            if (t && reported(t.id)) sink.started(t.id);
          } else if (e.type === "console") {
            const t = e.test ? matchTest(tests, e.test) : undefined;
            sink.output(e.text, t?.id ?? fileId);
          }
        },
      });
      for (const outcome of outcomesOf(fileId, tests, events)) if (reported(outcome.id)) sink.result(outcome);
      sink.finished?.(events);
      const end = events.find((e): e is Extract<HarnessEvent, { type: "end" }> => e.type === "end");
      host.log(`${label.toLowerCase()} ${host.describe(file)}: ${end?.status ?? "no end event"} in ${Date.now() - started} ms`);
      return buildResultView({ runId: host.newRunId(), title: `${label} · ${host.describe(file)}`, file, events, graphs: ranGraphs(await withTimeout(graphs, 2_000, []), events) });
    },
  });
  void handle.result.then((view) => {
    if (view === undefined) for (const id of asked) sink.skipped(id); // cancelled before it started
  });
  return handle;
}

/** Of an eval file's diagrams, those of what ran: its machines, and the flows its turns reported. */
function ranGraphs(graphs: AgentGraph[], events: readonly HarnessEvent[]): AgentGraph[] {
  const flows = reportedFlowIds(events);
  return graphs.filter((g) => g.kind === "machine" || flows.has(g.name));
}
