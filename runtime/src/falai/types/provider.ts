// The provider contract: what the runtime sends a model and what it reads back.

export interface ProviderCapabilities {
  supportsTools: boolean;
  supportsNativeJsonSchema: boolean;
  supportsStreaming: boolean;
  supportsStreamingToolCalls: boolean;
  supportsPromptCaching: boolean;
}

/** A JSON Schema object, as providers take it. */
export interface StructuredSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, StructuredSchema>;
  required?: string[];
  items?: StructuredSchema;
  enum?: readonly unknown[];
  anyOf?: StructuredSchema[];
  additionalProperties?: boolean | StructuredSchema;
  [keyword: string]: unknown;
}

/** A tool call inside an assistant history item (ids `call-<round>-<index>`). */
export interface HistoryToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type HistoryItem =
  | { role: "user"; content: string }
  | { role: "system"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: HistoryToolCall[] }
  | { role: "tool"; content: string; name: string; tool_call_id: string };

/** The conversation before this input, as the host keeps it. */
export type History = HistoryItem[];

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: StructuredSchema;
}

/** A tool call the model asked for (top level of the reply, or inside `structured.toolCalls`). */
export interface ProviderToolCall {
  toolName: string;
  arguments?: Record<string, unknown>;
  id?: string;
}

export interface GenerateMessageParameters {
  /** `"understand"` or `"speak"`: what the call is for. */
  schemaName?: string | undefined;
  jsonSchema?: StructuredSchema | undefined;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
}

export interface GenerateMessageInput<TContext = unknown> {
  /** The part of the instructions that changes from turn to turn. */
  prompt: string;
  /** The stable part (identity, knowledge base), split out so a provider can cache it. */
  system?: string | undefined;
  history: History;
  tools?: ToolDefinition[] | undefined;
  parameters?: GenerateMessageParameters | undefined;
  context?: TContext | undefined;
  signal?: AbortSignal | undefined;
}

export interface GenerateMessageOutput<T = unknown> {
  message: string;
  structured?: T | undefined;
  toolCalls?: ProviderToolCall[] | undefined;
  /** Token counts arrive here: `promptTokens`, `completionTokens`, `cachedInputTokens`. */
  metadata?: Record<string, unknown> | undefined;
}

export interface GenerateMessageStreamChunk<T = unknown> {
  delta: string;
  accumulated: string;
  done: boolean;
  structured?: T | undefined;
  toolCalls?: ProviderToolCall[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface AiProvider {
  name: string;
  capabilities: ProviderCapabilities;
  generateMessage<TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<TContext>): Promise<GenerateMessageOutput<TStructured>>;
  generateMessageStream?<TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<TContext>): AsyncIterable<GenerateMessageStreamChunk<TStructured>>;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedInputTokens: number;
}
