// GeminiProvider (upstream's name and options): generateContent through the official @google/genai SDK, loaded on
// the first call, on the Gemini API (never Vertex). The SDK reads GOOGLE_GEMINI_BASE_URL from the environment (a
// gateway, or a local test server) when the code names no `httpOptions.baseUrl`; `config` is the SDK's
// GenerateContentConfig (temperature, systemInstruction, thinkingConfig, …) and may carry `httpOptions` too.
import type { GenerateMessageInput, ProviderCapabilities } from "../types";
import { ModelProvider, type VendorChunk, type VendorReply } from "./base";
import { OVERLOAD_MESSAGES, type VendorRules } from "./failures";
import { openContent, sendContent, ThoughtSignatures, type ContentClient } from "./gemini-contents";
import type { ProviderOptionsBase } from "./options";

/** GenerateContentConfig defaults (`temperature`, `topP`, `maxOutputTokens`, `systemInstruction`, `thinkingConfig`, …). */
export type GeminiGenerationConfig = Record<string, unknown> & {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  systemInstruction?: string | { parts: Array<{ text: string }> };
  thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean; thinkingLevel?: string };
  httpOptions?: { baseUrl?: string; headers?: Record<string, string>; apiVersion?: string };
};

export interface GeminiProviderOptions extends ProviderOptionsBase {
  config?: GeminiGenerationConfig | undefined;
}

const RULES: VendorRules = {
  provider: "gemini", label: "Gemini", overloadStatuses: [500, 503], overloadCodes: ["overloaded"], overloadTypes: ["UNAVAILABLE", "INTERNAL"],
  overloadMessages: [...OVERLOAD_MESSAGES, "not available"],
};

export class GeminiProvider extends ModelProvider<ContentClient> {
  readonly name = "gemini";
  readonly capabilities: ProviderCapabilities = { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false };
  readonly #config: Record<string, unknown>;
  readonly #httpOptions: Record<string, unknown> | undefined;
  readonly #signatures = new ThoughtSignatures();

  constructor(options: GeminiProviderOptions) {
    super("GeminiProvider", RULES, "'models/gemini-2.5-pro'", options);
    const { httpOptions, ...config } = { ...options.config };
    this.#config = config;
    this.#httpOptions = httpOptions && typeof httpOptions === "object" ? { ...(httpOptions as Record<string, unknown>) } : undefined;
  }

  protected async createClient(apiKey: string): Promise<ContentClient> {
    const { GoogleGenAI } = await import("@google/genai");
    return new GoogleGenAI({ apiKey, vertexai: false, ...(this.#httpOptions ? { httpOptions: this.#httpOptions } : {}) }) as unknown as ContentClient;
  }

  protected send(client: ContentClient, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
    return sendContent(client, RULES.label, this.#config, model, input, this.#signatures, signal);
  }

  protected open(client: ContentClient, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncIterable<VendorChunk> {
    return openContent(client, RULES.label, this.#config, model, input, this.#signatures, signal);
  }
}
