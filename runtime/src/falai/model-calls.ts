// Every provider call goes through here (turn/provider-call.ts): under the harness it is offered to the
// model-call interceptor (../shared/model-calls.ts), which records it or answers it from the file's
// recording; outside, the provider is called as is. What a call is, for falai: its schemaName as the key
// ("understand", "speak"), the provider's model (else the model its reply names, else the provider's name),
// what the provider received (prompt, system, history, tools, the output schema and sampling settings, and
// whether it streamed — not `signal`, and not `context`: the host's object, which can hold anything, and
// whatever of it a flow uses is in the prompt already), and its reply (a streamed call: every chunk). The
// built-in providers also put a call the user's code makes directly (outside any turn) through here.
import { isUnrecorded, modelCallInterceptor, plainError, type KeptError, type ModelCallInterceptor, type ModelUsage } from "../shared/model-calls";
import { plainJson } from "../shared/recording/canonical";
import { ProviderError, type ErrorKind } from "./errors";
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk } from "./types";

/** The key of a call: its schemaName. */
export function callKey(input: GenerateMessageInput): string {
  return input.parameters?.schemaName ?? "(unnamed)";
}

/** What the provider received, as plain data. */
export function providerInput(input: GenerateMessageInput, stream: boolean): Record<string, unknown> {
  const p = input.parameters ?? {};
  return {
    prompt: input.prompt, system: input.system, history: input.history, tools: input.tools,
    jsonSchema: p.jsonSchema, temperature: p.temperature, maxOutputTokens: p.maxOutputTokens, stream,
  };
}

/** The model the provider is configured with (upstream's providers carry `model`), when it says. */
function providerModel(provider: AiProvider): string | undefined {
  const model = (provider as { model?: unknown }).model;
  return typeof model === "string" && model ? model : undefined;
}

function metadataOf(kept: unknown): Record<string, unknown> | undefined {
  const metadata = (kept as { metadata?: unknown } | undefined)?.metadata;
  return typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>) : undefined;
}

/** falai's token counts (`promptTokens`, `completionTokens`, `cachedInputTokens`) under the common names. */
function usageOfMetadata(metadata: Record<string, unknown> | undefined): ModelUsage | undefined {
  if (!metadata) return undefined;
  const out: ModelUsage = {};
  for (const [from, to] of [["promptTokens", "inputTokens"], ["completionTokens", "outputTokens"], ["cachedInputTokens", "cachedInputTokens"]] as const) {
    const v = metadata[from];
    if (typeof v === "number" && Number.isFinite(v)) out[to] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A streamed call's usage: the last chunk that carries metadata. */
function streamMetadata(kept: unknown): Record<string, unknown> | undefined {
  const chunks = (kept as { chunks?: unknown } | undefined)?.chunks;
  if (!Array.isArray(chunks)) return undefined;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const m = metadataOf(chunks[i]);
    if (m) return m;
  }
  return undefined;
}

/** A recorded failure as thrown: a ProviderError again (same kind, status, retry hints) when it was one. */
export function rebuildProviderError(kept: KeptError): Error {
  if (kept.name !== "ProviderError" || typeof kept.kind !== "string") return plainError(kept);
  const pick = <T>(k: string, type: string) => (typeof kept[k] === type ? { [k]: kept[k] as T } : {});
  return new ProviderError({
    provider: typeof kept.provider === "string" ? kept.provider : "recorded", kind: kept.kind as ErrorKind, message: kept.message,
    ...pick("status", "number"), ...pick("code", "string"), ...pick("retryAfterMs", "number"), ...pick("resetAtMs", "number"),
    ...pick("window", "string"), ...pick("shouldRetry", "boolean"), ...pick("body", "string"),
  });
}

function answeredModel(provider: AiProvider, metadata: Record<string, unknown> | undefined): string {
  return typeof metadata?.model === "string" && metadata.model ? metadata.model : provider.name;
}

/** What a provider that intercepts its own direct calls (the built-in ones) exposes: the same calls without
 *  the seam, for a turn's call, which goes through the seam here (with the turn's call site) already. */
export const LIVE_CALLS = Symbol.for("agent-lens.falai.live-calls");

interface LiveCalls {
  generateMessage(input: GenerateMessageInput): Promise<GenerateMessageOutput>;
  generateMessageStream(input: GenerateMessageInput): AsyncIterable<GenerateMessageStreamChunk>;
}

function liveCallsOf(provider: AiProvider): LiveCalls | undefined {
  return (provider as { [LIVE_CALLS]?: LiveCalls })[LIVE_CALLS];
}

// The inputs of calls being recorded right now: a provider that hands the same input on to another (a
// wrapper around a built-in provider) makes one model call, not two.
const inFlight = new WeakSet<object>();

function messageVia(interceptor: ModelCallInterceptor, provider: AiProvider, input: GenerateMessageInput, live: () => Promise<GenerateMessageOutput>, callSite: Error | undefined): Promise<GenerateMessageOutput> {
  const model = providerModel(provider);
  inFlight.add(input);
  return interceptor.call<GenerateMessageOutput>({
    library: "falai", key: callKey(input), ...(model ? { model } : {}), input: () => providerInput(input, false), ...(callSite ? { callSite } : {}),
    live,
    keep: (out) => plainJson(out),
    rebuild: (kept) => kept as GenerateMessageOutput,
    rebuildError: rebuildProviderError,
    usage: (kept) => usageOfMetadata(metadataOf(kept)),
    answeredModel: (kept) => answeredModel(provider, metadataOf(kept)),
  }).finally(() => inFlight.delete(input));
}

async function* streamVia(interceptor: ModelCallInterceptor, provider: AiProvider, input: GenerateMessageInput, live: () => AsyncIterable<GenerateMessageStreamChunk>, callSite: Error | undefined): AsyncGenerator<GenerateMessageStreamChunk> {
  const model = providerModel(provider);
  inFlight.add(input);
  try {
    yield* interceptor.stream<GenerateMessageStreamChunk>({
      library: "falai", key: callKey(input), ...(model ? { model } : {}), input: () => providerInput(input, true), ...(callSite ? { callSite } : {}),
      live,
      keep: (chunks) => ({ chunks: plainJson(chunks) }),
      rebuild: (kept) => ((kept as { chunks?: GenerateMessageStreamChunk[] } | undefined)?.chunks ?? []),
      rebuildError: rebuildProviderError,
      usage: (kept) => usageOfMetadata(streamMetadata(kept)),
      answeredModel: (kept) => answeredModel(provider, streamMetadata(kept)),
    });
  } finally {
    inFlight.delete(input);
  }
}

/** A turn's provider.generateMessage(input), through the harness's interceptor when there is one. */
export function generateMessage(provider: AiProvider, input: GenerateMessageInput, callSite?: Error): Promise<GenerateMessageOutput> {
  const interceptor = modelCallInterceptor();
  if (!interceptor || isUnrecorded(provider) || inFlight.has(input)) return provider.generateMessage(input);
  const live = liveCallsOf(provider);
  return messageVia(interceptor, provider, input, () => (live ? live.generateMessage(input) : provider.generateMessage(input)), callSite);
}

/** A turn's provider.generateMessageStream(input), through the harness's interceptor when there is one. */
export function generateMessageStream(provider: AiProvider, input: GenerateMessageInput, callSite?: Error): AsyncIterable<GenerateMessageStreamChunk> {
  const interceptor = modelCallInterceptor();
  if (!interceptor || isUnrecorded(provider) || inFlight.has(input)) return provider.generateMessageStream!(input);
  const live = liveCallsOf(provider);
  return streamVia(interceptor, provider, input, () => (live ? live.generateMessageStream(input) : provider.generateMessageStream!(input)), callSite);
}

/** A built-in provider's own generateMessage: a call the user's code makes directly (outside any turn) is a
 *  model call too, recorded and replayed like a turn's (its call site: the user's call). */
export function directMessage(provider: AiProvider, input: GenerateMessageInput, live: () => Promise<GenerateMessageOutput>): Promise<GenerateMessageOutput> {
  const interceptor = modelCallInterceptor();
  if (!interceptor || inFlight.has(input)) return live();
  return messageVia(interceptor, provider, input, live, new Error("agent-lens call site"));
}

/** A built-in provider's own generateMessageStream, as directMessage. */
export function directStream(provider: AiProvider, input: GenerateMessageInput, live: () => AsyncIterable<GenerateMessageStreamChunk>): AsyncIterable<GenerateMessageStreamChunk> {
  const interceptor = modelCallInterceptor();
  if (!interceptor || inFlight.has(input)) return live();
  return streamVia(interceptor, provider, input, live, new Error("agent-lens call site"));
}
