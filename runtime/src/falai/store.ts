// An in-memory session store with the same version check as a durable one. Rows are kept as JSON text and read
// back through assertSession, so Dates come back as text and undefined drops, as they would through a database.
import type { Session } from "./types";
import { SessionConflictError } from "./errors";
import { assertSession } from "./session";

export class MemoryStore<D = unknown> {
  readonly #rows = new Map<string, string>();

  /** The stored session, or null for an unknown id. */
  async load(id: string): Promise<Session<D> | null> {
    const row = this.#rows.get(id);
    return row === undefined ? null : assertSession<D>(JSON.parse(row), id);
  }

  /**
   * `expectedVersion` 0 inserts (a row must not exist); any other value updates a row still at that version.
   * Stores and returns the session at `expectedVersion + 1`; otherwise throws SessionConflictError.
   */
  async save(session: Session<D>, expectedVersion: number): Promise<Session<D>> {
    const row = this.#rows.get(session.id);
    const current = row === undefined ? undefined : (JSON.parse(row) as { version: number }).version;
    if (expectedVersion === 0 ? current !== undefined : current !== expectedVersion) throw new SessionConflictError(session.id, expectedVersion, current);
    const text = JSON.stringify({ ...session, version: expectedVersion + 1 });
    this.#rows.set(session.id, text);
    return assertSession<D>(JSON.parse(text), session.id);
  }

  /** Drops every session. */
  clear(): void {
    this.#rows.clear();
  }
}
