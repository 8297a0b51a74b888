// An in-memory wake queue for tests and single-process hosts: one entry per key (a new entry with the same key
// replaces the old one, as upstream's stores page says), due(now) hands over (and removes) every entry whose time
// has come, oldest first.
import type { ScheduleEntry } from "./types";

export class MemoryScheduler {
  readonly #entries = new Map<string, { entry: ScheduleEntry; atMs: number; seq: number }>();
  #seq = 0;

  /**
   * Queues an entry; an entry already queued under its key is replaced (returns false then, true for a new key).
   * An entry's `replaces` is dropped from the queue.
   */
  add(entry: ScheduleEntry): boolean {
    const atMs = new Date(entry.at).getTime();
    if (!Number.isFinite(atMs)) throw new TypeError(`MemoryScheduler.add: ${String(entry.at)} is not a time`);
    if (entry.replaces !== undefined) this.#entries.delete(entry.replaces);
    const isNew = !this.#entries.has(entry.key);
    this.#entries.delete(entry.key);
    this.#entries.set(entry.key, { entry: { ...entry, at: new Date(atMs) }, atMs, seq: this.#seq++ });
    return isNew;
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
