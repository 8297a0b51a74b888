// Which node:test test produced each result. The harness reports a result when it happens and a test when
// it ends, so a result of a node:test file usually comes without its test's name (the test's own start and
// end events follow it). A result belongs to the test that had not ended yet when it was reported and
// whose declaration is the nearest one above the result's call site in the same file (the deepest test of
// a suite). Results that already name their test, or that no test encloses, are left as they are. Pure.
import type { HarnessEvent } from "@agent-lens/protocol";

type TestMark = { test: string; file: string; line: number; endsAt: number };

export function attributeResults(events: readonly HarnessEvent[]): readonly HarnessEvent[] {
  const ends = new Map<string, number>();
  events.forEach((e, i) => {
    if (e.type === "test-end" && !ends.has(e.test)) ends.set(e.test, i);
  });
  const marks: TestMark[] = [];
  for (const e of events) {
    if (e.type !== "test-start" || !e.location) continue;
    marks.push({ test: e.test, file: norm(e.location.file), line: e.location.line, endsAt: ends.get(e.test) ?? Number.POSITIVE_INFINITY });
  }
  if (!marks.length) return events;
  let changed = false;
  const out = events.map((e, i) => {
    if (e.type !== "result" || e.test !== undefined || !e.callSite) return e;
    const file = norm(e.callSite.file);
    const line = e.callSite.line;
    let best: TestMark | undefined;
    for (const m of marks) if (m.file === file && m.line <= line && m.endsAt > i && (!best || m.line > best.line)) best = m;
    if (!best) return e;
    changed = true;
    return { ...e, test: best.test };
  });
  return changed ? out : events;
}

function norm(file: string): string {
  return file.replace(/\\/g, "/").replace(/^file:\/\//, "");
}
