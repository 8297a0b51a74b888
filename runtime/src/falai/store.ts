// An in-memory session store with optimistic versions, for tests and single-process use.
import type { Session } from "./types";
import { SessionConflictError } from "./errors";

export class MemoryStore<Data = Record<string, unknown>> {
  readonly #sessions = new Map<string, Session<Data>>();

  /** A copy of the stored session, or null for an unknown one. */
  async load(sessionId: string): Promise<Session<Data> | null> {
    const s = this.#sessions.get(sessionId);
    return s ? structuredClone(s) : null;
  }

  /**
   * Stores a copy at version `expectedVersion + 1` and returns that copy. Throws SessionConflictError
   * when the stored version (0 when none) is not `expectedVersion`.
   */
  async save(session: Session<Data>, expectedVersion: number): Promise<Session<Data>> {
    const current = this.#sessions.get(session.id)?.version ?? 0;
    if (current !== expectedVersion) throw new SessionConflictError(session.id, expectedVersion, current);
    const stored = { ...structuredClone(session), version: expectedVersion + 1 };
    this.#sessions.set(session.id, stored);
    return structuredClone(stored);
  }

  async delete(sessionId: string): Promise<boolean> {
    return this.#sessions.delete(sessionId);
  }

  get size(): number {
    return this.#sessions.size;
  }
}
