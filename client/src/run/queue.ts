// The one run queue of the extension: code lenses, the palette's run commands and the Testing view all
// enqueue their runs here, so one concurrency limit (`agentLens.run.jobs`), one way to cancel and one set
// of states hold for all of them:
//   queued  → waiting for a free slot (first come, first served);
//   running → holding a slot; its AbortSignal is aborted by cancel();
//   done    → finished, or cancelled (while queued it never starts: its result is undefined).
// A job gets the queue's `start` function to run files with: the one place a harness run starts (a
// pre-warmed child process can slot in behind it without any caller changing). Pure: no VS Code types.
import type { EndEvent, HarnessEvent, RecordingsMode, RuntimeMode } from "@agent-lens/protocol";

export interface StartOptions {
  /** The file to run (absolute). For a generated entry: the file the source was written to. */
  file: string;
  /** What to call the run in the log instead of the file's name (a generated program's label). */
  label?: string;
  /** The workspace folder (child cwd; where the workspace's own library copies are looked up). */
  cwd: string;
  timeoutMs: number;
  runtime: RuntimeMode;
  /** How model calls use the file's recording (default `auto`). */
  recordings?: RecordingsMode;
  /** A dotenv file whose variables the run gets (relative to `cwd`). */
  envFile?: string;
  /** node:test files: run only the tests these name (Node's --test-name-pattern). */
  testNamePatterns?: readonly string[];
  signal: AbortSignal;
  onEvent(event: HarnessEvent): void;
}

/** Runs one file; resolves with its `end` event (never rejects for user-code failures). */
export type StartRun = (options: StartOptions) => Promise<EndEvent>;

export type JobState = "queued" | "running" | "done";

export interface Job<T> {
  /** Identifies what runs (a lens's target, an eval file): find() looks jobs up by it. */
  key: string;
  label: string;
  /** Called when the job takes a slot, before `run`. */
  onStart?(): void;
  run(start: StartRun, signal: AbortSignal): Promise<T>;
}

export interface JobHandle<T> {
  readonly key: string;
  readonly label: string;
  readonly state: JobState;
  /** The job's result; undefined when it was cancelled before it started. */
  readonly result: Promise<T | undefined>;
  cancel(): void;
}

class Entry<T> implements JobHandle<T> {
  state: JobState = "queued";
  readonly abort = new AbortController();
  resolve!: (value: T | undefined) => void;
  readonly result = new Promise<T | undefined>((r) => (this.resolve = r));
  constructor(readonly job: Job<T>, private readonly onCancel: (entry: Entry<T>) => void) {}
  get key(): string {
    return this.job.key;
  }
  get label(): string {
    return this.job.label;
  }
  cancel(): void {
    this.onCancel(this);
  }
}

export interface QueueSnapshot {
  running: Array<{ key: string; label: string }>;
  queued: Array<{ key: string; label: string }>;
}

export class RunQueue {
  private readonly waiting: Array<Entry<unknown>> = [];
  private readonly active = new Set<Entry<unknown>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly start: StartRun, private limitValue: number, private readonly onError: (error: unknown) => void = () => undefined) {}

  get limit(): number {
    return this.limitValue;
  }

  /** A new limit (the setting changed): more slots start waiting jobs now; fewer let running jobs finish. */
  setLimit(limit: number): void {
    this.limitValue = Math.max(1, Math.floor(limit));
    this.pump();
  }

  enqueue<T>(job: Job<T>): JobHandle<T> {
    const entry = new Entry<T>(job, (e) => this.cancel(e as Entry<unknown>));
    this.waiting.push(entry as Entry<unknown>);
    this.changed();
    this.pump();
    return entry;
  }

  /** The queued or running job with this key, if any. */
  find(key: string): JobHandle<unknown> | undefined {
    for (const e of this.active) if (e.key === key) return e;
    return this.waiting.find((e) => e.key === key);
  }

  snapshot(): QueueSnapshot {
    const brief = (e: Entry<unknown>) => ({ key: e.key, label: e.label });
    return { running: [...this.active].map(brief), queued: this.waiting.map(brief) };
  }

  /** Called on every change of any job's state. Returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  cancelAll(): void {
    for (const e of [...this.waiting, ...this.active]) this.cancel(e);
  }

  private cancel(entry: Entry<unknown>): void {
    if (entry.state === "queued") {
      this.waiting.splice(this.waiting.indexOf(entry), 1);
      entry.state = "done";
      entry.resolve(undefined);
      this.changed();
    } else if (entry.state === "running") {
      entry.abort.abort();
    }
  }

  private pump(): void {
    while (this.active.size < this.limitValue && this.waiting.length) {
      const entry = this.waiting.shift()!;
      this.active.add(entry);
      entry.state = "running";
      void this.execute(entry);
    }
  }

  private async execute(entry: Entry<unknown>): Promise<void> {
    let value: unknown;
    try {
      entry.job.onStart?.();
      this.changed();
      value = await entry.job.run(this.start, entry.abort.signal);
    } catch (error) {
      // A job's own bug must not stall the queue (user-code failures are results, not exceptions).
      value = undefined;
      this.onError(error);
    } finally {
      this.active.delete(entry);
      entry.state = "done";
      entry.resolve(value);
      this.changed();
      this.pump();
    }
  }

  private changed(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
