// What `agent-lens run` keeps of each file's run for the reports made after the runs (coverage, JUnit,
// blob, repeats): the harness's result, the tail of its output, and its `result` events in order.
import type { FileRunResult } from "@agent-lens/harness";
import type { HarnessEvent, ResultEvent } from "@agent-lens/protocol";

export interface FileRecord {
  /** Absolute path of the eval file. */
  file: string;
  result: FileRunResult;
  /** The end of the file's output (at most CONSOLE_KEPT characters). */
  console: string;
  results: ResultEvent[];
  /** 1-based repetition, with --repeat. */
  repeat?: number;
}

/** A failed file's report shows the end of its output; more than this is never kept. */
const CONSOLE_KEPT = 64 * 1024;

/** Collects one file's events as they stream (onEvent) into its record. */
export class FileRecorder {
  private console = "";
  private readonly results: ResultEvent[] = [];
  /** Reports with no test name, waiting for the test-start they belong to. */
  private loose: number[] = [];

  constructor(private readonly keepResults: boolean) {}

  onEvent(e: HarnessEvent): void {
    if (e.type === "console") {
      this.console += e.text;
      if (this.console.length > 2 * CONSOLE_KEPT) this.console = this.console.slice(-CONSOLE_KEPT);
    } else if (e.type === "result" && this.keepResults) {
      this.results.push(e);
      if (e.test === undefined) this.loose.push(this.results.length - 1);
    } else if (e.type === "test-start") {
      // node:test: a test's reports come before its test-start (sent once its result is known), after the
      // test before it ended; they are its own (tests of a file run one after another)
      for (const i of this.loose) this.results[i] = { ...this.results[i]!, test: e.test };
      this.loose = [];
    }
  }

  get consoleText(): string {
    return this.console;
  }

  record(result: FileRunResult, repeat?: number): FileRecord {
    return { file: result.file, result, console: this.console.slice(-CONSOLE_KEPT), results: this.results, ...(repeat !== undefined ? { repeat } : {}) };
  }
}

/** Records in a stable order: by file, then repetition (runs finish in any order). */
export function sortRecords(records: FileRecord[]): FileRecord[] {
  return [...records].sort((a, b) => a.file.localeCompare(b.file) || (a.repeat ?? 0) - (b.repeat ?? 0));
}
