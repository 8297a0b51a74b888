// A warm child: the next run's process, started before it is asked for, with the libraries the last
// file imported already loaded (control-protocol.ts). It runs one file and exits like any child (one
// process per file, never reused); the next one is started behind it. runEvalFile takes it only when it
// is exactly what a cold start would have made for the file — same working directory, environment, heap
// limit, node:test reporter and cache folder (specKey) — and when every library it preloaded is one the
// file imports (so it did nothing the file would not have done). Anything else ends it and starts cold.
// Pure Node: the extension decides when children may exist (`allowed`: never in an untrusted workspace).
import { harnessAssets, type HarnessAssets } from "./assets";
import { filesIntact } from "./cache";
import { HarnessChild, mismatch, specKey, type ChildSpec } from "./child-process";
import type { BundleLibraries } from "./libraries";


export interface WarmChildrenOptions {
  /** Asked before every start: whether a child may exist now. Default: always. */
  allowed?: () => boolean;
  /** An idle child is ended after this long without a file (default 5 minutes). */
  idleMs?: number;
  assets?: HarnessAssets;
  /** Told when a child is started, ended and why, and when one dies while it waits (the extension's log). */
  log?: (line: string) => void;
}

export type TakeResult = { child: HarnessChild; miss?: undefined } | { child?: undefined; miss: string };

export class WarmChildren {
  private child: HarnessChild | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** The library entries the last file imported (what the next child's preload is narrowed by). */
  private lastLibraries: readonly string[] | undefined;

  constructor(private readonly options: WarmChildrenOptions = {}) {}

  private get assets(): HarnessAssets {
    return this.options.assets ?? harnessAssets();
  }

  /** The idle warm child, if there is one (for status and tests). */
  get current(): HarnessChild | undefined {
    return this.child?.idle ? this.child : undefined;
  }

  /** The warm child for a file that needs `spec` and imports `libraries`; it is the caller's from now on.
   *  When there is none, or it does not match (then it is ended), says why. */
  take(spec: ChildSpec, libraries: readonly string[]): TakeResult {
    const child = this.child;
    this.child = undefined;
    this.stopIdleTimer();
    if (!child || !child.idle) return { miss: child ? "the warm child had exited" : "no warm child" };
    const miss = mismatch(child, spec, this.assets, libraries, "warm child");
    if (miss) {
      this.say(`warm child ${child.pid} ended: ${miss}`);
      void child.discard();
      return { miss };
    }
    return { child };
  }

  /** A file ran with `spec`, importing `libraries`: start the next child like it, preloading the libraries
   *  this file and the one before it both imported (after checking every file against its hash: nothing is
   *  preloaded when one changed). Preloading only what two runs in a row shared keeps a child useful when
   *  files of both libraries take turns (a Testing view run): a child preloaded with one library cannot
   *  take a file of the other, an empty one can take either. Does nothing when children are not allowed. */
  prepare(spec: ChildSpec, libraries?: BundleLibraries): void {
    if (this.disposed || !(this.options.allowed?.() ?? true)) return;
    const imported = libraries?.entries ?? [];
    const before = this.lastLibraries;
    this.lastLibraries = imported;
    const shared = before ? imported.filter((entry) => before.includes(entry)) : imported;
    const preload = libraries && shared.length && filesIntact(libraries.files) ? shared : [];
    const key = specKey(spec, this.assets);
    const have = this.current;
    if (have && have.key === key && sameList(have.preload, preload)) return;
    if (this.child) {
      this.say(`warm child ${this.child.pid} ended: the last run needs another one`);
      void this.child.discard();
    }
    this.child = undefined;
    let child: HarnessChild;
    try {
      child = new HarnessChild(spec, this.assets, preload);
    } catch (error) {
      this.say(`no warm child: its process could not be started (${error instanceof Error ? error.message : String(error)})`);
      return; // the next run starts cold, and says why it could
    }
    this.child = child;
    this.say(`warm child ${child.pid} started (${spec.nodeTest ? "node:test" : "plain script"}, ${preload.length} librar${preload.length === 1 ? "y" : "ies"} preloaded)`);
    void child.exited.then((exit) => {
      if (this.child !== child) return;
      this.child = undefined;
      // Nothing asked it to end: it died while it waited (the next run starts cold).
      if (!this.disposed) this.say(`warm child ${child.pid} died while it waited (${exit.error ? exit.error.message : exit.signal ?? `exit code ${exit.code}`})`);
    });
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => void this.clear("idle too long"), this.options.idleMs ?? 5 * 60_000);
    this.idleTimer.unref();
  }

  /** Ends the idle child, if any; resolves once it is gone. */
  async clear(why = "asked to"): Promise<void> {
    this.stopIdleTimer();
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    this.say(`warm child ${child.pid} ended: ${why}`);
    await child.discard();
  }

  /** Ends the idle child and starts no more. */
  dispose(): Promise<void> {
    this.disposed = true;
    return this.clear("disposed");
  }

  private say(line: string): void {
    this.options.log?.(line);
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
