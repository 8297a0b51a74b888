// Per-document debounce for diagnostics. A newer edit resets the document's timer (the stale run never
// starts); a run that finishes after a newer version arrived is dropped by the caller's version check.
export class DebouncedRunner {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly run: (key: string) => void) {}

  schedule(key: string, delayMs: number): void {
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.run(key);
      }, delayMs),
    );
  }

  cancel(key: string): void {
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
