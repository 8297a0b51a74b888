// Which result the panel shows: the one the user asked for last — a lens click, a test run they started,
// "Show diagram", an entry picked from the recent list. Runs that finish meanwhile are kept in the recent
// list, never put on show over it. Pure (ResultsPanel posts what this decides), so it is unit-tested.
import type { DiagramPanelView, RecentEntry, ResultView } from "@agent-lens/protocol";

export type Shown = { type: "show"; view: ResultView } | { type: "diagram"; view: DiagramPanelView };

/** What to do after an event: draw `shown` (and reveal the panel when `reveal`), or nothing. */
export interface Decision {
  shown: Shown;
  reveal: boolean;
}

const RECENT_LIMIT = 12;

export class PanelState {
  /** The run on show. */
  pinned: number | undefined;
  private requests = 0;
  private readonly kept = new Map<number, Shown>();
  /** When each kept entry was last updated. */
  private readonly updated = new Map<number, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The user asked for this (a run they started, a result or diagram they picked): it goes on show. */
  show(shown: Shown): Decision {
    this.requests++;
    this.pinned = shown.view.runId;
    this.keep(shown);
    return { shown, reveal: true };
  }

  /** The user asked for something that answers later (a test run); see showIfLatest. */
  request(): number {
    return ++this.requests;
  }

  /** Goes on show only when nothing else was asked of the panel since `request`. */
  showIfLatest(request: number, shown: Shown): Decision | undefined {
    return request === this.requests ? this.show(shown) : this.finish(shown);
  }

  /** Live progress: drawn only when it is the run on show (never revealed). */
  update(shown: Shown): Decision | undefined {
    this.keep(shown);
    return shown.view.runId === this.pinned ? { shown, reveal: false } : undefined;
  }

  /** A final result: on show (and revealed) when it is the pinned run; otherwise only kept. */
  finish(shown: Shown): Decision | undefined {
    this.keep(shown);
    return shown.view.runId === this.pinned ? { shown, reveal: true } : undefined;
  }

  /** An entry of the recent list, picked in the panel. */
  select(runId: number): Decision | undefined {
    const shown = this.kept.get(runId);
    return shown ? this.show(shown) : undefined;
  }

  /** Nothing is on show (a message took the panel). */
  clear(): void {
    this.requests++;
    this.pinned = undefined;
  }

  current(): Shown | undefined {
    return this.pinned === undefined ? undefined : this.kept.get(this.pinned);
  }

  /** What the panel keeps, newest first. */
  recent(): RecentEntry[] {
    return [...this.kept.values()]
      .map((s): RecentEntry => {
        const at = this.updated.get(s.view.runId);
        const base = { runId: s.view.runId, title: s.view.title, ...(at !== undefined ? { at } : {}) };
        return s.type === "diagram" ? { ...base, status: "diagram" } : { ...base, status: s.view.status, verdict: s.view.verdict.text };
      })
      .sort((a, b) => b.runId - a.runId);
  }

  private keep(shown: Shown): void {
    this.kept.set(shown.view.runId, shown);
    this.updated.set(shown.view.runId, this.now());
    const ids = [...this.kept.keys()].sort((a, b) => b - a);
    for (const id of ids.slice(RECENT_LIMIT)) {
      if (id === this.pinned) continue;
      this.kept.delete(id);
      this.updated.delete(id);
    }
  }
}
