// The last results of each thing the user ran (issue 27, item 2): a lens's run, a Testing view file run,
// kept by the extension so the panel can compare the run on show with the previous run of the same thing,
// or with the last one that passed. A run's events are kept (its console output left out), at most
// RUNS_PER_SUBJECT runs of SUBJECTS subjects and about MAX_BYTES in all; the oldest go first. Stored through
// `HistoryStore` (extension workspace storage in VS Code: nothing is written into the workspace). Pure.
import type { HarnessEvent, HistoryMark, ResultView, RunStatus } from "@agent-lens/protocol";

export const RUNS_PER_SUBJECT = 10;
export const SUBJECTS = 40;
const MAX_BYTES = 4_000_000;

export interface HistoryEntry {
  /** Which session of the extension made it (run ids start again in each one). */
  session: string;
  runId: number;
  /** When it finished (ms since the epoch). */
  at: number;
  status: RunStatus;
  verdict: string;
  events: HarnessEvent[];
  /** The lens's call (file, 1-based line), when the run was about one. */
  focus?: { file: string; line: number };
  subject?: string;
}

interface Saved {
  version: 1;
  /** Subject key → its runs, oldest first. */
  subjects: Record<string, HistoryEntry[]>;
}

export interface HistoryStore {
  read(): string | undefined;
  /** The history as text, made when the store writes (it may write later, once for several runs). */
  write(text: () => string): void;
  /** Writes what is waiting, now (the extension is going away). */
  flush?(): void;
}

/** What makes two runs runs "of the same thing": the same title (lens or Testing view file), file and line. */
function subjectOf(view: Pick<ResultView, "title" | "file" | "line">): string {
  return `${view.title}\u0000${view.file}\u0000${view.line ?? ""}`;
}

export class RunHistory {
  private subjects = new Map<string, HistoryEntry[]>();
  /** Each kept run's size as JSON (trimming adds these up rather than serialising everything again). */
  private readonly sizes = new WeakMap<HistoryEntry, number>();

  constructor(private readonly store: HistoryStore, readonly session: string, private readonly now: () => number = Date.now) {
    try {
      const saved = JSON.parse(store.read() ?? "null") as Saved | null;
      if (saved?.version === 1 && saved.subjects && typeof saved.subjects === "object") {
        for (const [key, runs] of Object.entries(saved.subjects)) if (Array.isArray(runs)) this.subjects.set(key, runs.filter(isEntry));
      }
    } catch {
      // an unreadable history is no history: it is rewritten with the next run
    }
  }

  /** A run that finished (its final view and the events it was built from). Kept once per run. */
  record(view: ResultView, source: { events: readonly HarnessEvent[]; focus?: { file: string; line: number }; subject?: string }): void {
    const { events } = source;
    if (view.status === "running" || !events.some((e) => e.type === "end")) return;
    const key = subjectOf(view);
    const runs = this.subjects.get(key) ?? [];
    if (runs.some((r) => r.session === this.session && r.runId === view.runId)) return;
    const entry: HistoryEntry = { session: this.session, runId: view.runId, at: this.now(), status: view.status, verdict: view.verdict.text, events: events.filter((e) => e.type !== "console"), ...(source.focus ? { focus: source.focus } : {}), ...(source.subject ? { subject: source.subject } : {}) };
    runs.push(entry);
    this.subjects.delete(key);
    this.subjects.set(key, runs.slice(-RUNS_PER_SUBJECT)); // most recently used subject last
    this.trim();
    this.store.write(() => JSON.stringify({ version: 1, subjects: Object.fromEntries(this.subjects) } satisfies Saved));
  }

  /** The run `view` shows, and the earlier ones "Compare with …" can use. */
  earlier(view: ResultView): { current?: HistoryEntry; previous?: HistoryEntry; passing?: HistoryEntry } {
    const runs = this.subjects.get(subjectOf(view)) ?? [];
    const at = runs.findIndex((r) => r.session === this.session && r.runId === view.runId);
    const before = at >= 0 ? runs.slice(0, at) : view.status === "running" ? runs : [];
    return {
      ...(at >= 0 ? { current: runs[at] } : {}),
      ...(before.length ? { previous: before.at(-1) } : {}),
      ...(before.some((r) => r.status === "passed") ? { passing: before.filter((r) => r.status === "passed").at(-1) } : {}),
    };
  }

  dispose(): void {
    this.store.flush?.();
  }

  /** What the panel's compare buttons say about `view` (only for a run that is kept: a finished one). */
  marks(view: ResultView): { previous?: HistoryMark; passing?: HistoryMark } | undefined {
    const { current, previous, passing } = this.earlier(view);
    if (!current || (!previous && !passing)) return undefined;
    const mark = (e: HistoryEntry): HistoryMark => ({ at: e.at, status: e.status });
    return { ...(previous ? { previous: mark(previous) } : {}), ...(passing ? { passing: mark(passing) } : {}) };
  }

  private trim(): void {
    while (this.subjects.size > SUBJECTS) this.subjects.delete(this.subjects.keys().next().value!);
    let bytes = 0;
    for (const runs of this.subjects.values()) for (const r of runs) bytes += this.sizeOf(r);
    // the oldest run of the least recently used subject first; a subject's newest run stays
    for (const [key, runs] of this.subjects) {
      while (bytes > MAX_BYTES && runs.length > 1) bytes -= this.sizeOf(runs.shift()!);
      if (bytes <= MAX_BYTES) break;
      if (runs.length === 1 && this.subjects.size > 1) {
        bytes -= this.sizeOf(runs[0]!);
        this.subjects.delete(key);
      }
    }
  }

  private sizeOf(entry: HistoryEntry): number {
    let size = this.sizes.get(entry);
    if (size === undefined) this.sizes.set(entry, (size = JSON.stringify(entry).length));
    return size;
  }
}

function isEntry(e: unknown): e is HistoryEntry {
  const r = e as HistoryEntry;
  return !!r && typeof r.session === "string" && typeof r.runId === "number" && typeof r.at === "number" && typeof r.status === "string" && Array.isArray(r.events);
}
