// AnthropicProvider (upstream's name and options): the Messages API through the official @anthropic-ai/sdk, loaded
// on the first call. The SDK reads ANTHROPIC_BASE_URL from the environment (a gateway, or a local test server).
// JSON output is prompt-instructed (upstream's capabilities: no native schema mode); the call's stable system half
// is marked for prompt caching, and cache reads come back as `cachedInputTokens`.
import type { GenerateMessageInput, ProviderCapabilities } from "../types";
import { ModelProvider, type VendorChunk, type VendorReply } from "./base";
import { OVERLOAD_MESSAGES, type VendorRules } from "./failures";
import { openMessages, sendMessages, type MessagesClient } from "./anthropic-messages";
import type { ProviderOptionsBase } from "./options";

/** Messages request defaults (`max_tokens`, `temperature`, `system`, `top_p`, `top_k`, `thinking`, …). */
export type AnthropicRequestConfig = Record<string, unknown> & {
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  system?: string | Array<{ type: "text"; text: string; cache_control?: { type: "ephemeral" } }>;
  stop_sequences?: string[];
};

export interface AnthropicProviderOptions extends ProviderOptionsBase {
  config?: AnthropicRequestConfig | undefined;
}

const RULES: VendorRules = {
  provider: "anthropic", label: "Anthropic", overloadStatuses: [500, 503, 529], overloadCodes: ["overloaded"], overloadTypes: ["overloaded_error", "api_error"],
  overloadMessages: OVERLOAD_MESSAGES,
};

export class AnthropicProvider extends ModelProvider<MessagesClient> {
  readonly name = "anthropic";
  readonly capabilities: ProviderCapabilities = { supportsTools: true, supportsNativeJsonSchema: false, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: true };
  readonly #config: Record<string, unknown>;

  constructor(options: AnthropicProviderOptions) {
    super("AnthropicProvider", RULES, "'claude-sonnet-4-5' or 'claude-opus-4-1'", options);
    this.#config = { ...options.config };
  }

  protected async createClient(apiKey: string, timeoutMs: number): Promise<MessagesClient> {
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    // An explicit timeout also spares the SDK's "streaming is required" refusal of large non-streamed max_tokens.
    return new Anthropic({ apiKey, maxRetries: 0, timeout: timeoutMs }) as unknown as MessagesClient;
  }

  protected send(client: MessagesClient, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
    return sendMessages(client, RULES.label, this.#config, model, input, signal);
  }

  protected open(client: MessagesClient, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncIterable<VendorChunk> {
    return openMessages(client, RULES.label, this.#config, model, input, signal);
  }
}
