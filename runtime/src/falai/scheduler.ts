// An in-memory wake queue for tests and single-process hosts: add is idempotent by key, due(now) hands over (and
// removes) every entry whose time has come, oldest first.
import type { ScheduleEntry } from "./types";

export class MemoryScheduler {
  readonly #entries = new Map<string, { entry: ScheduleEntry; atMs: number; seq: number }>();
  #seq = 0;

  /** Queues an entry; a key already queued keeps its first entry. An entry's `replaces` is dropped from the queue. */
  add(entry: ScheduleEntry): boolean {
    const atMs = new Date(entry.at).getTime();
    if (!Number.isFinite(atMs)) throw new TypeError(`MemoryScheduler.add: ${String(entry.at)} is not a time`);
    if (entry.replaces !== undefined) this.#entries.delete(entry.replaces);
    if (this.#entries.has(entry.key)) return false;
    this.#entries.set(entry.key, { entry: { ...entry, at: new Date(atMs) }, atMs, seq: this.#seq++ });
    return true;
  }

  /** Removes and returns every entry due at `now` (at <= now), oldest first; ties in the order they were added. */
  due(now: Date | number | string): ScheduleEntry[] {
    const nowMs = new Date(now).getTime();
    const due = [...this.#entries.values()].filter((e) => e.atMs <= nowMs).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    for (const e of due) this.#entries.delete(e.entry.key);
    return due.map((e) => e.entry);
  }

  /** Drops a queued key (a wake you know is stale). */
  remove(key: string): boolean {
    return this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
