// What the four providers share: checked options, the vendor SDK's client made on first use (so a file that never
// calls a model never loads an SDK), attempts and failover (attempts.ts), and the reply's metadata: token counts
// (`promptTokens` counts every input token, cached ones included; `cachedInputTokens` the cached part;
// `completionTokens` every output token, reasoning included) and `model`, the model that answered (a backup
// after a failover). The key lives in a private field: it is in no public property, message or metadata.
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk, ProviderCapabilities } from "../types";
import type { ProviderError } from "../errors";
import { callWithAttempts, streamWithAttempts, type AttemptPlan } from "./attempts";
import { classify, type VendorRules } from "./failures";
import { checkOptions, type CheckedOptions } from "./options";
import { directMessage, directStream, LIVE_CALLS } from "../model-calls";

/** One reply as a vendor adapter reads it, before the shared metadata is added. */
export interface VendorReply {
  message: string;
  structured?: Record<string, unknown> | undefined;
  toolCalls?: Array<{ toolName: string; arguments: Record<string, unknown>; id?: string }> | undefined;
  usage?: { promptTokens?: number | undefined; completionTokens?: number | undefined; cachedInputTokens?: number | undefined } | undefined;
  /** The model name the vendor reported (a dated snapshot, say), when it differs from the one asked for. */
  responseModel?: string | undefined;
  finishReason?: string | undefined;
}

export type VendorChunk = { delta: string } | { done: VendorReply };

export abstract class ModelProvider<Client> implements AiProvider {
  abstract readonly name: string;
  abstract readonly capabilities: ProviderCapabilities;
  /** The model called first (upstream's `model` option). */
  readonly model: string;
  readonly backupModels: readonly string[];
  readonly #apiKey: string;
  readonly #settings: CheckedOptions;
  #client: Promise<Client> | undefined;

  protected constructor(className: string, protected readonly rules: VendorRules, example: string, options: unknown, extraKeys: readonly string[] = []) {
    this.#settings = checkOptions(className, rules.label, example, options, extraKeys);
    this.#apiKey = this.#settings.apiKey;
    this.model = this.#settings.model;
    this.backupModels = Object.freeze([...this.#settings.backupModels]);
  }

  /** Loads the SDK (a dynamic import) and makes its client, with the SDK's own retries off (ours count). */
  protected abstract createClient(apiKey: string, timeoutMs: number): Promise<Client>;
  protected abstract send(client: Client, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply>;
  protected abstract open(client: Client, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncIterable<VendorChunk>;

  private client(): Promise<Client> {
    // A failed load is not kept: the next call tries again.
    this.#client ??= this.createClient(this.#apiKey, this.#settings.timeoutMs).catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  private plan(input: GenerateMessageInput): AttemptPlan {
    return {
      models: [this.model, ...this.backupModels], timeoutMs: this.#settings.timeoutMs, retries: this.#settings.retries,
      signal: input.signal, classify: (error, model) => this.classifyFailure(error, model),
    };
  }

  protected classifyFailure(error: unknown, model: string): ProviderError {
    return classify(this.rules, error, model, this.#apiKey);
  }

  private metadata(reply: VendorReply, model: string): Record<string, unknown> {
    const u = reply.usage ?? {};
    const meta: Record<string, unknown> = { provider: this.name, model };
    if (reply.responseModel && reply.responseModel !== model) meta.responseModel = reply.responseModel;
    for (const k of ["promptTokens", "completionTokens", "cachedInputTokens"] as const) if (typeof u[k] === "number") meta[k] = u[k];
    if (reply.finishReason) meta.finishReason = reply.finishReason;
    return meta;
  }

  private output<T>(reply: VendorReply, model: string): GenerateMessageOutput<T> {
    return {
      message: reply.message,
      ...(reply.structured !== undefined ? { structured: reply.structured as T } : {}),
      ...(reply.toolCalls?.length ? { toolCalls: reply.toolCalls } : {}),
      metadata: this.metadata(reply, model),
    };
  }

  /** The calls as made: a turn's call reaches them through the runtime's model-call seam (../model-calls.ts),
   *  a call the user's code makes directly through the two public methods below, so each is one model call. */
  readonly [LIVE_CALLS] = {
    generateMessage: (input: GenerateMessageInput) => this.callModel(input),
    generateMessageStream: (input: GenerateMessageInput) => this.streamModel(input),
  };

  generateMessage<_TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<_TContext>): Promise<GenerateMessageOutput<TStructured>> {
    return directMessage(this, input as GenerateMessageInput, () => this.callModel(input as GenerateMessageInput)) as Promise<GenerateMessageOutput<TStructured>>;
  }

  generateMessageStream<_TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<_TContext>): AsyncIterable<GenerateMessageStreamChunk<TStructured>> {
    return directStream(this, input as GenerateMessageInput, () => this.streamModel(input as GenerateMessageInput)) as AsyncIterable<GenerateMessageStreamChunk<TStructured>>;
  }

  private async callModel<TStructured = unknown>(input: GenerateMessageInput): Promise<GenerateMessageOutput<TStructured>> {
    const client = await this.client();
    const { value, model } = await callWithAttempts(this.plan(input as GenerateMessageInput), (m, signal) => this.send(client, m, input as GenerateMessageInput, signal));
    return this.output<TStructured>(value, model);
  }

  private async *streamModel<TStructured = unknown>(input: GenerateMessageInput): AsyncGenerator<GenerateMessageStreamChunk<TStructured>> {
    const client = await this.client();
    let model = this.model;
    let accumulated = "";
    const chunks = streamWithAttempts(this.plan(input as GenerateMessageInput), (m, signal) => this.open(client, m, input as GenerateMessageInput, signal), (m) => (model = m));
    for await (const chunk of chunks) {
      if ("delta" in chunk) {
        accumulated += chunk.delta;
        yield { delta: chunk.delta, accumulated, done: false };
        continue;
      }
      const out = this.output<TStructured>(chunk.done, model);
      yield { delta: "", accumulated: out.message, done: true, ...(out.structured !== undefined ? { structured: out.structured } : {}), ...(out.toolCalls ? { toolCalls: out.toolCalls } : {}), metadata: out.metadata };
    }
  }
}
