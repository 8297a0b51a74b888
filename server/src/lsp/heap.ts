// The language server's memory between and during bursts of typing (issue 30). Analyzing a 10k-line file
// anew allocates a few times its tree, most of it promoted before it dies; V8 let the old generation grow
// to up to four times what was live before collecting it (RSS 0.9–1 GB while typing, ~70 MB live) and kept
// the grown heap afterwards (its memory reducer starts 8 s after the last collection at the earliest).
//  - `boundHeapGrowth`: the old generation may grow to twice what the last full collection left live
//    before the next (V8's --heap-growing-percent=100, set at run time so it holds however a client
//    starts the server). Measured in process on a 10k-line machine: peak RSS 850–980 → 330–340 MB at the
//    same CPU per keystroke; in a 5,000-state machine 635–670 → 410–450 MB, CPU within the noise.
//  - `collectWhenIdle`: two full collections once the server has been quiet for 1 and 2 s after work (the
//    second releases the pages the first one's sweeping freed), so RSS returns to its settled size.
import { performance } from "node:perf_hooks";
import * as v8 from "node:v8";
import * as vm from "node:vm";

export function boundHeapGrowth(percent = 100): void {
  try {
    v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  } catch {
    // an engine that refuses: V8's own growth
  }
}

/** The engine's full collection, reached without a command-line flag; undefined where refused. */
function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}

export interface IdleCollectionOptions {
  /** Quiet after work before the first collection (the second follows as long again later), ms. */
  idleMs?: number;
  /** How often the event loop's use is sampled, ms. */
  tickMs?: number;
  /** Busy time within one tick that counts as work (a tick itself costs far less), ms. */
  workMs?: number;
}

/** Starts sampling the event loop; returns a function that stops. The timer never keeps the process alive. */
export function collectWhenIdle(options: IdleCollectionOptions = {}): () => void {
  const { idleMs = 1000, tickMs = 250, workMs = 5 } = options;
  const gc = fullCollection();
  if (!gc) return () => undefined;
  let last = performance.eventLoopUtilization();
  let quietSince = performance.now();
  let owed = 0; // collections still to make in this quiet spell
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).active;
    last = now;
    if (busy > workMs) {
      owed = 2;
      quietSince = performance.now();
    } else if (owed && performance.now() - quietSince >= idleMs * (3 - owed)) {
      owed--;
      gc();
      last = performance.eventLoopUtilization(); // the collection is not work to collect after
    }
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
