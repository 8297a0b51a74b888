// Nothing is skipped silently: every file (or machine) the server does not analyze gets a log line in
// the output channel, once per file and reason, and the user gets a notice. Notices are gathered for a
// moment so indexing a folder with many generated files shows one message, not one per file.
import { basename } from "node:path";

export interface SkipSinks {
  log(message: string): void;
  notify(message: string): void;
}

const NOTICE_DELAY_MS = 300;
const NAMED_IN_NOTICE = 3;

export class SkipReporter {
  private readonly said = new Set<string>(); // file + reason
  private pending: Array<{ file: string; reason: string }> = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly sinks: SkipSinks) {}

  /** `file` (a path or URI) was not analyzed, or not wholly, because of `reason`. */
  report(file: string, reason: string): void {
    const key = `${file}\0${reason}`;
    if (this.closed || this.said.has(key)) return;
    this.said.add(key);
    this.sinks.log(`[agent-lens] skipped ${file}: ${reason}`);
    this.pending.push({ file, reason });
    this.timer ??= setTimeout(() => this.flush(), NOTICE_DELAY_MS);
  }

  /** The file is analyzed again (smaller now, say): the same skip later is news again. */
  forget(file: string, reason: string): void {
    this.said.delete(`${file}\0${reason}`);
  }

  dispose(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }

  private flush(): void {
    this.timer = undefined;
    const items = this.pending;
    this.pending = [];
    if (this.closed || !items.length) return;
    if (items.length === 1) {
      this.sinks.notify(`Agent Lens did not analyze all of ${basename(items[0]!.file)}: ${items[0]!.reason}`);
      return;
    }
    const named = items.slice(0, NAMED_IN_NOTICE).map((i) => `${basename(i.file)} (${i.reason})`).join("; ");
    const more = items.length > NAMED_IN_NOTICE ? `; and ${items.length - NAMED_IN_NOTICE} more` : "";
    this.sinks.notify(`Agent Lens did not analyze all of ${items.length} files: ${named}${more}. The output channel lists each one.`);
  }
}
