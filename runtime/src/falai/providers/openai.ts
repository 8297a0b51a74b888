// OpenAIProvider (upstream's name and options): Chat Completions through the official `openai` SDK, loaded on the
// first call. The SDK reads OPENAI_BASE_URL (a gateway, or a local test server), OPENAI_ORG_ID and
// OPENAI_PROJECT_ID from the environment; `organization` is sent as the OpenAI-Organization header.
import type { GenerateMessageInput, ProviderCapabilities } from "../types";
import { ModelProvider, type VendorChunk, type VendorReply } from "./base";
import { OVERLOAD_MESSAGES, type VendorRules } from "./failures";
import { openChat, sendChat, type ChatClient, type ChatDialect } from "./openai-chat";
import type { ProviderOptionsBase } from "./options";

/** Chat Completions request defaults (`temperature`, `top_p`, `max_completion_tokens`, `reasoning_effort`, …). */
export type OpenAIRequestConfig = Record<string, unknown> & {
  temperature?: number;
  top_p?: number;
  max_completion_tokens?: number;
  max_tokens?: number;
  reasoning_effort?: string;
  seed?: number;
  user?: string;
};

export interface OpenAIProviderOptions extends ProviderOptionsBase {
  organization?: string | undefined;
  config?: OpenAIRequestConfig | undefined;
}

const RULES: VendorRules = {
  provider: "openai", label: "OpenAI", overloadStatuses: [500, 503], overloadCodes: ["model_overloaded"], overloadTypes: [], overloadMessages: OVERLOAD_MESSAGES,
};

export class OpenAIProvider extends ModelProvider<ChatClient> {
  readonly name = "openai";
  readonly capabilities: ProviderCapabilities = { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false };
  readonly #organization: string | undefined;
  readonly #dialect: ChatDialect;

  constructor(options: OpenAIProviderOptions) {
    super("OpenAIProvider", RULES, "'gpt-5' or 'gpt-5-mini'", options, ["organization"]);
    if (options.organization !== undefined && typeof options.organization !== "string") throw new Error("OpenAIProvider: organization must be a string.");
    this.#organization = options.organization || undefined;
    this.#dialect = { label: RULES.label, config: { ...options.config }, maxTokensField: "max_completion_tokens" };
  }

  protected async createClient(apiKey: string, timeoutMs: number): Promise<ChatClient> {
    const { default: OpenAI } = await import("openai");
    return new OpenAI({ apiKey, maxRetries: 0, timeout: timeoutMs, ...(this.#organization ? { organization: this.#organization } : {}) }) as unknown as ChatClient;
  }

  protected send(client: ChatClient, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
    return sendChat(client, this.#dialect, model, input, signal);
  }

  protected open(client: ChatClient, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncIterable<VendorChunk> {
    return openChat(client, this.#dialect, model, input, signal);
  }
}
