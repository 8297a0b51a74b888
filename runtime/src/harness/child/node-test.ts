// node:test files: each test's pass / fail / skip from the runner's event stream becomes test-start and
// test-end events, named by their path ("suite > test"), located in the user's source.
//
// The events come from where the runner pushes them into its stream (tapTestsStream), synchronously, so
// a test that calls process.exit() cannot take the results of the tests before it along: the reporter
// (test-reporter.ts) reads the same stream a few ticks later, and is only the fallback for a Node whose
// runner this tap does not see. Whichever source speaks first is the one used.
import { Readable } from "node:stream";
import type { FailureInfo, TestStatus } from "@agent-lens/protocol";
import { emit } from "./channel";
import { failureFrom } from "./failures";
import type { UserCode } from "./locations";

interface TestEventData {
  name?: string;
  nesting?: number;
  file?: string;
  line?: number;
  column?: number;
  skip?: boolean | string;
  todo?: boolean | string;
  details?: { duration_ms?: number; type?: string; error?: unknown };
}

export type EventSource = "stream" | "reporter";

/** Calls `onEvent` for each event node:test's runner pushes into its TestsStream, and `onEnd` when the
 *  runner ends that stream (it has reported everything). */
export function tapTestsStream(onEvent: (event: { type: string; data: unknown }) => void, onEnd: () => void): void {
  const push = Readable.prototype.push;
  Readable.prototype.push = function tappedPush(this: Readable, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (this.constructor?.name === "TestsStream") {
      try {
        if (chunk === null) onEnd();
        else if (chunk && typeof (chunk as { type?: unknown }).type === "string") onEvent(chunk as { type: string; data: unknown });
      } catch {
        // a tracker failure must not break the runner
      }
    }
    return push.call(this, chunk, encoding);
  };
}

export class NodeTestTracker {
  private readonly names: string[] = [];
  private source: EventSource | undefined;
  /** The runner has reported every test (its event stream ended). */
  ended = false;
  /** Tests enqueued and not yet complete, by "nesting:name:line:column". */
  private readonly pending = new Map<string, { name: string; nesting: number; data: TestEventData }>();
  failedTests = 0;
  seenTests = 0;

  constructor(private readonly user: UserCode) {}

  private keyOf(d: TestEventData): string {
    return `${d.nesting}:${d.name}:${d.line}:${d.column}`;
  }

  /** The runner's stream (or the reporter, when the tap saw nothing) ended. */
  onRunnerEnd(source: EventSource): void {
    if (this.source === undefined || this.source === source) this.ended = true;
  }

  onEvent(event: { type: string; data: unknown }, source: EventSource): void {
    this.source ??= source;
    if (source !== this.source) return;
    const d = (event.data ?? {}) as TestEventData;
    switch (event.type) {
      case "test:enqueue":
        this.pending.set(this.keyOf(d), { name: d.name ?? "", nesting: d.nesting ?? 0, data: d });
        break;
      case "test:complete":
        this.pending.delete(this.keyOf(d));
        break;
      case "test:start":
        this.names.length = d.nesting ?? 0;
        this.names.push(d.name ?? "");
        break;
      case "test:pass":
      case "test:fail":
        this.onEnd(d, event.type === "test:pass");
        break;
    }
  }

  private onEnd(d: TestEventData, passed: boolean): void {
    const error = d.details?.error as (Error & { failureType?: string; cause?: unknown }) | undefined;
    // A suite is reported through its tests, unless the suite itself failed (a hook or its body threw).
    if (d.details?.type === "suite" && (passed || error?.failureType === "subtestsFailed")) return;
    const nesting = d.nesting ?? 0;
    const path = [...this.names.slice(0, nesting), d.name ?? ""];
    const test = path.join(" > ");
    const location = this.user.locate(d.file, d.line, d.column);
    const status: TestStatus = d.skip !== undefined && d.skip !== false || d.todo !== undefined && d.todo !== false ? "skipped" : passed ? "passed" : "failed";
    let failure: FailureInfo | undefined;
    if (status === "failed") {
      const cause = error?.cause ?? error;
      const code = error?.failureType === "testTimeoutFailure" ? "timeout" : error?.failureType === "cancelledByParent" ? "cancelled" : "failed";
      failure = failureFrom(cause, this.user, code);
      this.failedTests++;
    }
    this.seenTests++;
    emit({ type: "test-start", test, location, path });
    emit({ type: "test-end", test, status, durationMs: d.details?.duration_ms ?? 0, location, failure, path });
  }

  /** At a forced exit: the tests that never finished. */
  unfinished(): Array<{ test: string; location?: ReturnType<UserCode["locate"]> }> {
    const all = [...this.pending.values()];
    // Only leaves: an entry with an enqueued child one level deeper on the same file is a suite.
    return all
      .filter((p) => !all.some((q) => q.nesting === p.nesting + 1 && (q.data.line ?? 0) >= (p.data.line ?? 0)))
      .map((p) => ({ test: p.name, location: this.user.locate(p.data.file, p.data.line, p.data.column) }));
  }
}
