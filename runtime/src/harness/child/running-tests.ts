// Which node:test test is running right now, so a model call can be put under its test. node:test pushes
// `test:dequeue` when a test (or suite) starts executing and `test:complete` when it has finished, both
// synchronously with the execution (unlike `test:start`, which comes when the result is reported), so the
// running set is exact at any moment. The name is the path the test's result is reported under
// ("suite > test"). Tests of a file run one at a time unless the file asks for concurrency; with two
// sibling tests running at once a call belongs to neither for sure (`current()` then lists both).
// Needs Node ≥ 20.15 / 22 (the two events); on an older Node no test is ever seen running.

interface TestEventData {
  name?: string;
  nesting?: number;
  line?: number;
  column?: number;
  file?: string;
  skip?: unknown;
  todo?: unknown;
}

export type CurrentTest = { test: string | undefined; concurrent?: undefined } | { test?: undefined; concurrent: string[] };

export class RunningTests {
  /** The names by nesting level, as the last dequeue left them. */
  private readonly names: string[] = [];
  /** Running tests and suites: event key → path. */
  private readonly running = new Map<string, string[]>();

  constructor(private readonly onComplete: (test: string, skipped: boolean) => void) {}

  private keyOf(d: TestEventData): string {
    return `${d.nesting ?? 0}:${d.name}:${d.file}:${d.line}:${d.column}`;
  }

  onEvent(event: { type: string; data: unknown }): void {
    const d = (event.data ?? {}) as TestEventData;
    if (event.type === "test:dequeue") {
      const nesting = d.nesting ?? 0;
      this.names.length = nesting;
      this.names.push(d.name ?? "");
      this.running.set(this.keyOf(d), [...this.names]);
    } else if (event.type === "test:complete") {
      const key = this.keyOf(d);
      const path = this.running.get(key);
      if (!path) return;
      this.running.delete(key);
      const skipped = (d.skip !== undefined && d.skip !== false) || (d.todo !== undefined && d.todo !== false);
      this.onComplete(path.join(" > "), skipped);
    }
  }

  /** The test running now (the innermost, when a test runs subtests); undefined outside every test. */
  current(): CurrentTest {
    const paths = [...this.running.values()];
    const leaves = paths.filter((p) => !paths.some((q) => q.length > p.length && p.every((name, i) => q[i] === name)));
    if (leaves.length > 1) return { concurrent: leaves.map((p) => p.join(" > ")) };
    return { test: leaves[0]?.join(" > ") };
  }
}
