// An in-memory wake queue: add is idempotent by key, due(now) lists what has come due, oldest first.
import type { ScheduleEntry } from "./types";

export class MemoryScheduler {
  readonly #entries = new Map<string, ScheduleEntry & { atMs: number; seq: number }>();
  #seq = 0;

  /** Adds an entry; a key already queued is left as it is. Returns whether it was added. */
  add(entry: ScheduleEntry): boolean {
    if (this.#entries.has(entry.key)) return false;
    const atMs = Date.parse(entry.at);
    if (!Number.isFinite(atMs)) throw new TypeError(`MemoryScheduler.add: ${JSON.stringify(entry.at)} is not a time`);
    this.#entries.set(entry.key, { ...entry, atMs, seq: this.#seq++ });
    return true;
  }

  /** Entries whose time has come (at <= now), oldest first; they stay queued until removed or taken. */
  due(now: Date | number | string): ScheduleEntry[] {
    const nowMs = now instanceof Date ? now.getTime() : typeof now === "number" ? now : Date.parse(now);
    return [...this.#entries.values()]
      .filter((e) => e.atMs <= nowMs)
      .sort((a, b) => a.atMs - b.atMs || a.seq - b.seq)
      .map(({ atMs: _a, seq: _s, ...entry }) => entry);
  }

  /** Like due(now), and removes what it returns. */
  take(now: Date | number | string): ScheduleEntry[] {
    const entries = this.due(now);
    for (const e of entries) this.#entries.delete(e.key);
    return entries;
  }

  remove(key: string): boolean {
    return this.#entries.delete(key);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Every queued entry, oldest first. */
  list(): ScheduleEntry[] {
    return this.due(Number.POSITIVE_INFINITY);
  }

  get size(): number {
    return this.#entries.size;
  }
}
