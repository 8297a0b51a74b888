// OpenRouterProvider (upstream's name and options): OpenRouter's OpenAI-compatible Chat Completions through the
// `openai` SDK, at https://openrouter.ai/api/v1 unless OPENROUTER_BASE_URL names another (OPENAI_BASE_URL is not
// read here: it points the OpenAI provider elsewhere, nor are OPENAI_ORG_ID / OPENAI_PROJECT_ID). `siteUrl` / `siteName` go out as HTTP-Referer / X-Title.
import type { GenerateMessageInput, ProviderCapabilities } from "../types";
import { ModelProvider, type VendorChunk, type VendorReply } from "./base";
import { OVERLOAD_MESSAGES, type VendorRules } from "./failures";
import { openChat, sendChat, type ChatClient, type ChatDialect } from "./openai-chat";
import type { OpenAIRequestConfig } from "./openai";
import { envUrl, type ProviderOptionsBase } from "./options";

const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

export interface OpenRouterProviderOptions extends ProviderOptionsBase {
  siteUrl?: string | undefined;
  siteName?: string | undefined;
  config?: OpenAIRequestConfig | undefined;
}

const RULES: VendorRules = {
  provider: "openrouter", label: "OpenRouter", overloadStatuses: [500, 503], overloadCodes: ["model_overloaded"], overloadTypes: [],
  overloadMessages: [...OVERLOAD_MESSAGES, "capacity"],
};

export class OpenRouterProvider extends ModelProvider<ChatClient> {
  readonly name = "openrouter";
  readonly capabilities: ProviderCapabilities = { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false };
  readonly #headers: Record<string, string>;
  readonly #dialect: ChatDialect;

  constructor(options: OpenRouterProviderOptions) {
    super("OpenRouterProvider", RULES, "'anthropic/claude-sonnet-4.5' or 'openai/gpt-5-mini'", options, ["siteUrl", "siteName"]);
    for (const k of ["siteUrl", "siteName"] as const) {
      if (options[k] !== undefined && typeof options[k] !== "string") throw new Error(`OpenRouterProvider: ${k} must be a string.`);
    }
    this.#headers = { ...(options.siteUrl ? { "HTTP-Referer": options.siteUrl } : {}), ...(options.siteName ? { "X-Title": options.siteName } : {}) };
    // OpenRouter documents max_tokens.
    this.#dialect = { label: RULES.label, config: { ...options.config }, maxTokensField: "max_tokens" };
  }

  protected async createClient(apiKey: string, timeoutMs: number): Promise<ChatClient> {
    const { default: OpenAI } = await import("openai");
    return new OpenAI({ apiKey, baseURL: envUrl("OPENROUTER_BASE_URL") ?? OPENROUTER_BASE_URL, maxRetries: 0, timeout: timeoutMs, defaultHeaders: this.#headers, organization: null, project: null }) as unknown as ChatClient;
  }

  protected send(client: ChatClient, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
    return sendChat(client, this.#dialect, model, input, signal);
  }

  protected open(client: ChatClient, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncIterable<VendorChunk> {
    return openChat(client, this.#dialect, model, input, signal);
  }
}
