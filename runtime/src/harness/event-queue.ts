// The events of one run as an async iterable: pushed as they happen, read at the reader's pace.
import type { HarnessEvent } from "@agent-lens/protocol";

/** A push queue read as an async iterable. */
export class EventQueue implements AsyncIterable<HarnessEvent> {
  private readonly items: HarnessEvent[] = [];
  private waiting: ((r: IteratorResult<HarnessEvent>) => void) | undefined;
  private done = false;

  push(e: HarnessEvent): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: e, done: false });
    } else this.items.push(e);
  }

  close(): void {
    this.done = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<HarnessEvent> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item) return Promise.resolve({ value: item, done: false });
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((r) => (this.waiting = r));
      },
    };
  }
}
