// The server's collection after work: two forced full collections once the event loop has been quiet after
// a burst of work, none while nothing happens, and none while work goes on (server/src/lsp/heap.ts).
import assert from "node:assert/strict";
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { collectWhenIdle } from "../../server/src/lsp/heap";

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** Counts forced full collections from now until `stop()`. */
function countForced(): { count(): number; stop(): void } {
  let forced = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind: number; flags: number } }>) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { count: () => forced, stop: () => observer.disconnect() };
}

/** Forced full collections seen while `during` runs. */
async function forcedCollections(during: () => Promise<void>): Promise<number> {
  const counter = countForced();
  try {
    await during();
    await pause(50); // gc entries are delivered asynchronously
    return counter.count();
  } finally {
    counter.stop();
  }
}

describe("lsp: collection when idle", () => {
  // The windows are generous and waited for rather than fixed: on a loaded machine a tick comes late and
  // the quiet spells stretch, which changes when the collections come, never how many.
  it("collects twice after a burst of work once the loop is quiet, then waits for more work", async () => {
    const stop = collectWhenIdle({ idleMs: 150, tickMs: 25, workMs: 20 });
    try {
      // Whatever the suite did before this test is work: its collections come first. Then a quiet spell
      // with no work has none (a collector that kept collecting would never give one).
      let idle = -1;
      for (let tries = 0; tries < 20 && idle !== 0; tries++) idle = await forcedCollections(() => pause(400));
      assert.equal(idle, 0, "no work, no collection");
      const counter = countForced();
      try {
        for (let i = 0; i < 5; i++) {
          busy(60);
          await pause(5);
        }
        for (const deadline = Date.now() + 20_000; counter.count() < 2 && Date.now() < deadline;) await pause(50);
        await pause(600); // twice the longest wait for a collection: a third would have come
        assert.equal(counter.count(), 2, "two collections after the work");
      } finally {
        counter.stop();
      }
      assert.equal(await forcedCollections(() => pause(400)), 0, "quiet again: nothing more");
    } finally {
      stop();
    }
  });

  it("does not collect while work goes on", async () => {
    const stop = collectWhenIdle({ idleMs: 1000, tickMs: 25, workMs: 20 });
    try {
      const during = await forcedCollections(async () => {
        for (let i = 0; i < 30; i++) {
          busy(40);
          await pause(5);
        }
      });
      assert.equal(during, 0);
    } finally {
      stop();
    }
  });
});
