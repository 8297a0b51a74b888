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

/** Forced full collections seen while `during` runs. */
async function forcedCollections(during: () => Promise<void>): Promise<number> {
  let forced = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind: number; flags: number } }>) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  try {
    await during();
    await pause(50); // gc entries are delivered asynchronously
  } finally {
    observer.disconnect();
  }
  return forced;
}

describe("lsp: collection when idle", () => {
  it("collects twice after a burst of work once the loop is quiet, then waits for more work", async () => {
    const stop = collectWhenIdle({ idleMs: 150, tickMs: 25, workMs: 20 });
    try {
      await pause(700); // whatever the suite did before this test is work: its collections come first
      const idle = await forcedCollections(() => pause(400));
      assert.equal(idle, 0, "no work, no collection");
      const afterWork = await forcedCollections(async () => {
        for (let i = 0; i < 5; i++) {
          busy(60);
          await pause(5);
        }
        await pause(900);
      });
      assert.equal(afterWork, 2);
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
