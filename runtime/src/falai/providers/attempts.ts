// How a provider spends its attempts (upstream's rules): each model gets `retries` attempts of at most `timeout` ms
// each; a transient failure (rate limit, overload, timeout, network, an empty reply) is tried again after a
// backoff of 1 s, 2 s, 4 s (at most 5 s; the server's retry-after when it names one), a failure that a backup
// model may fix moves on to the next of `backupModels`, anything else fails at once. When every model has
// failed, the last failure is thrown. A stream is retried only until its first chunk: after that the consumer
// has seen text, so a failure ends it. The caller's abort signal ends everything at once.
import { ProviderError } from "../errors";
import { AttemptTimeout, isFailover, isRetryable } from "./failures";

export interface AttemptPlan {
  models: readonly string[];
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal | undefined;
  classify(error: unknown, model: string): ProviderError;
}

/** Longest wait between attempts kept inside the call; a longer retry-after goes to the next model or the caller. */
const MAX_BACKOFF_MS = 5_000;

function backoffMs(attempt: number, retryAfterMs: number | undefined): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= MAX_BACKOFF_MS ? retryAfterMs : undefined;
  return Math.min(1000 * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

/** An abort signal for one attempt: the caller's, plus a timer that `arm()` restarts (a stream re-arms per chunk). */
class AttemptSignal {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly stopFollowing: () => void;
  constructor(private readonly ms: number, private readonly caller: AbortSignal | undefined) {
    const follow = () => this.controller.abort(caller?.reason);
    caller?.addEventListener("abort", follow, { once: true });
    this.stopFollowing = () => caller?.removeEventListener("abort", follow);
    if (caller?.aborted) follow();
    this.arm();
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  pause(): void {
    clearTimeout(this.timer);
  }
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new AttemptTimeout(this.ms));
    }, this.ms);
  }
  /** Settles with `work`, or rejects the moment the attempt is aborted (an SDK that ignores the signal cannot hang it). */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(this.reason());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.reason());
      signal.addEventListener("abort", onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
  reason(): unknown {
    return this.timedOut ? new AttemptTimeout(this.ms) : Object.assign(new Error("The call was aborted"), { name: "AbortError" });
  }
  /** What the attempt failed with, as seen by the caller: our timeout, the caller's abort, or the SDK's error. */
  failure(error: unknown): unknown {
    if (this.timedOut) return new AttemptTimeout(this.ms);
    if (this.caller?.aborted) return Object.assign(new Error("The call was aborted"), { name: "AbortError", cause: error });
    return error;
  }
  dispose(): void {
    clearTimeout(this.timer);
    this.stopFollowing();
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The next step after a failed attempt: try again after `waitMs`, move to the next model, or stop. */
function nextStep(plan: AttemptPlan, error: ProviderError, attempt: number): { waitMs: number } | "next-model" | "stop" {
  if (error.kind === "aborted" || plan.signal?.aborted) return "stop";
  if (isRetryable(error) && attempt < plan.retries) {
    const waitMs = backoffMs(attempt, error.retryAfterMs);
    if (waitMs !== undefined) return { waitMs };
  }
  return isFailover(error) ? "next-model" : "stop";
}

/** One call through the models and attempts; resolves with the reply and the model that gave it. */
export async function callWithAttempts<T>(plan: AttemptPlan, once: (model: string, signal: AbortSignal) => Promise<T>): Promise<{ value: T; model: string }> {
  let last: ProviderError | undefined;
  for (const model of plan.models) {
    for (let attempt = 1; ; attempt++) {
      const a = new AttemptSignal(plan.timeoutMs, plan.signal);
      try {
        return { value: await a.race(once(model, a.signal)), model };
      } catch (error) {
        last = plan.classify(a.failure(error), model);
      } finally {
        a.dispose();
      }
      const step = nextStep(plan, last, attempt);
      if (step === "stop") throw last;
      if (step === "next-model") break;
      await sleep(step.waitMs, plan.signal);
    }
  }
  throw last!;
}

/**
 * One streamed call. `open` returns the vendor's chunks for a model; the first chunk must come within the timeout
 * (and each later one within the timeout of the one before). `onModel` hears which model the chunks come from.
 */
export async function* streamWithAttempts<T>(plan: AttemptPlan, open: (model: string, signal: AbortSignal) => AsyncIterable<T>, onModel: (model: string) => void): AsyncGenerator<T> {
  let last: ProviderError | undefined;
  for (const model of plan.models) {
    for (let attempt = 1; ; attempt++) {
      const a = new AttemptSignal(plan.timeoutMs, plan.signal);
      let yielded = false;
      let finished = false;
      let iterator: AsyncIterator<T> | undefined;
      try {
        iterator = open(model, a.signal)[Symbol.asyncIterator]();
        for (;;) {
          const r = await a.race(iterator.next());
          if (r.done) {
            finished = true;
            return;
          }
          if (!yielded) onModel(model);
          yielded = true;
          a.pause(); // the consumer's time between chunks is not the vendor's
          yield r.value;
          a.arm();
        }
      } catch (error) {
        last = plan.classify(a.failure(error), model);
        if (yielded) throw last;
      } finally {
        a.dispose();
        // Abandoned (a failure, a timeout, a consumer that stopped reading): close the vendor's stream.
        if (!finished && iterator) {
          a.controller.abort();
          void Promise.resolve(iterator.return?.()).catch(() => undefined);
        }
      }
      const step = nextStep(plan, last, attempt);
      if (step === "stop") throw last;
      if (step === "next-model") break;
      await sleep(step.waitMs, plan.signal);
    }
  }
  throw last!;
}
