// The seam between the runtime and the harness for model calls, like report.ts is for results. Around every
// model call — a stately executor answering a request (text or decision), a falai provider call — the
// runtime asks for an interceptor under a global symbol. The harness child installs one before the user's
// code loads: it records the call, or answers it from the file's recording and checks it has not drifted
// (runtime/src/harness/child/recorder.ts). Outside the harness nothing is installed and the call runs as
// written, for the price of one property lookup.

export const MODEL_CALLS_KEY = Symbol.for("agent-lens.model-calls");

export type ModelLibrary = "stately" | "falai";

/** Token counts of one call (stately's `usage`, falai's `metadata` token counts, under one set of names). */
export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
}

/** A failure kept in a recording: the thrown error's name, message and own plain properties (status, code…). */
export interface KeptError {
  name: string;
  message: string;
  [property: string]: unknown;
}

interface CallDescription {
  library: ModelLibrary;
  /** stately: the request name; falai: the call's schemaName ("understand", "speak"). */
  key: string;
  /** The model when known before the call (stately: the AI SDK model's provider/modelId, else the model
   *  key; falai: the provider's model, else its name). */
  model?: string;
  /** What the executor / provider receives, as plain data (the harness redacts and orders it). */
  input(): unknown;
  /** Made when the user's run entered the runtime: its stack holds the user's call site. */
  callSite?: Error;
  /** The failure a recording kept, rebuilt as the library's own error. */
  rebuildError(kept: KeptError): Error;
  /** Token counts of what `keep` kept. */
  usage(kept: unknown): ModelUsage | undefined;
  /** The model a kept answer names (falai: `metadata.model`), when it names one. */
  answeredModel?(kept: unknown): string | undefined;
}

/** One call answered at once (stately executors, falai's generateMessage). */
export interface ModelCallSpec<T> extends CallDescription {
  live(): Promise<T>;
  /** What is kept of an answer: plain data, never the SDK's raw objects. */
  keep(answer: T): unknown;
  /** The answer, rebuilt from what was kept. */
  rebuild(kept: unknown): T;
}

/** One streamed call (falai's generateMessageStream): its chunks are kept, so a replay streams the same ones. */
export interface ModelStreamSpec<C> extends CallDescription {
  live(): AsyncIterable<C>;
  keep(chunks: C[]): unknown;
  rebuild(kept: unknown): C[];
}

export interface ModelCallInterceptor {
  call<T>(spec: ModelCallSpec<T>): Promise<T>;
  stream<C>(spec: ModelStreamSpec<C>): AsyncIterable<C>;
}

/** The harness's interceptor, when the code runs under the harness. */
export function modelCallInterceptor(): ModelCallInterceptor | undefined {
  const installed = (globalThis as Record<symbol, unknown>)[MODEL_CALLS_KEY];
  return typeof installed === "object" && installed !== null ? (installed as ModelCallInterceptor) : undefined;
}

/** What a replay throws instead of answering (a drifted call, a call a replay-only run has no recording
 *  for): the runtime lets it through as it is, never retried, deferred or routed as a model failure. Told
 *  apart by its name (the harness child and the libraries each have their own copy of this module). */
export class ReplayDriftError extends Error {
  readonly code: "replay-drift" | "not-recorded";
  constructor(message: string, code: "replay-drift" | "not-recorded" = "replay-drift") {
    super(message);
    this.name = "ReplayDriftError";
    this.code = code;
  }
}

export function isReplayError(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplayDriftError";
}

// Answers written by hand or read from a recording are not model calls: they are neither recorded nor
// replayed (runSeam's scripts, createScriptedExecutors, createRecordedExecutors, recordedProvider).
const unrecorded = new WeakSet<object>();

export function markUnrecorded<T extends object>(value: T): T {
  unrecorded.add(value);
  return value;
}

export function isUnrecorded(value: unknown): boolean {
  return (typeof value === "object" || typeof value === "function") && value !== null && unrecorded.has(value);
}

/** The error a kept failure describes: the library's own class when it has one for it, else a plain Error. */
export function plainError(kept: KeptError): Error {
  const error = new Error(kept.message);
  error.name = kept.name;
  for (const [k, v] of Object.entries(kept)) if (k !== "name" && k !== "message") Object.defineProperty(error, k, { value: v, enumerable: true, writable: true, configurable: true });
  return error;
}
