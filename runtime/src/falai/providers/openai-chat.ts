// The Chat Completions dialect, which OpenAIProvider and OpenRouterProvider both speak through the `openai` SDK:
// the call's `system` as the first message, the history in order (assistant `tool_calls` as function tool calls,
// `role: "tool"` items as tool messages), the prompt as the last user message; `tools` as function tools; a JSON
// schema as `response_format: { type: "json_schema" }` (strict when the schema is closed at every level, as the
// runtime's envelopes are); streaming over SSE with the usage in the last chunk. Upstream's structured path used
// the Responses API with the prompt alone; this one keeps the history and the tools in structured calls too.
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import type { GenerateMessageInput, HistoryItem, StructuredSchema } from "../types";
import { EmptyReply } from "./failures";
import { finishReply, parseArguments, ReplyText } from "./json-reply";
import type { VendorChunk, VendorReply } from "./base";

/** The part of the `openai` client this file calls (kept structural so no SDK type reaches the declarations). */
export interface ChatClient {
  chat: { completions: { create(body: Record<string, unknown>, options: { signal: AbortSignal }): Promise<unknown> } };
}

export interface ChatDialect {
  label: string;
  /** Request defaults from the provider's `config`. */
  config: Record<string, unknown>;
  /** Where `parameters.maxOutputTokens` goes (`max_completion_tokens` for OpenAI, `max_tokens` for OpenRouter). */
  maxTokensField: string;
}

function historyMessages(history: readonly HistoryItem[]): Record<string, unknown>[] {
  return history.map((item) => {
    switch (item.role) {
      case "assistant":
        return item.tool_calls?.length
          ? { role: "assistant", content: item.content || null, tool_calls: item.tool_calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) } })) }
          : { role: "assistant", content: item.content ?? "" };
      case "tool":
        return { role: "tool", tool_call_id: item.tool_call_id, content: item.content };
      default:
        return { role: item.role, content: item.content };
    }
  });
}

/** Closed at every level (each object lists all its properties as required, no others): strict mode accepts it. */
function isClosedSchema(schema: unknown): boolean {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return true;
  const s = schema as StructuredSchema;
  const props = s.properties && typeof s.properties === "object" ? s.properties : undefined;
  if (props || s.type === "object") {
    const keys = Object.keys(props ?? {});
    if (s.additionalProperties !== false || keys.some((k) => !s.required?.includes(k))) return false;
  }
  const children = [
    ...Object.values(props ?? {}), s.items,
    ...(["anyOf", "oneOf", "allOf"] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : [])),
    ...(["$defs", "definitions"] as const).flatMap((k) => (s[k] && typeof s[k] === "object" ? Object.values(s[k] as object) : [])),
  ];
  return children.every(isClosedSchema);
}

function chatRequest(dialect: ChatDialect, model: string, input: GenerateMessageInput, stream: boolean): Record<string, unknown> {
  const messages = [
    ...(input.system ? [{ role: "system", content: input.system }] : []),
    ...historyMessages(input.history ?? []),
    { role: "user", content: input.prompt },
  ];
  const p = input.parameters;
  const body: Record<string, unknown> = { ...dialect.config, model, messages };
  if (input.tools?.length) {
    body.tools = input.tools.map((t) => ({ type: "function", function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters } }));
  }
  if (p?.jsonSchema) {
    const name = (p.schemaName ?? "reply").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "reply";
    body.response_format = { type: "json_schema", json_schema: { name, schema: p.jsonSchema, strict: isClosedSchema(p.jsonSchema) } };
  }
  if (p?.temperature !== undefined) body.temperature = p.temperature;
  if (p?.maxOutputTokens !== undefined) body[dialect.maxTokensField] = p.maxOutputTokens;
  if (stream) {
    body.stream = true;
    body.stream_options = { ...(dialect.config.stream_options as object | undefined), include_usage: true };
  }
  return body;
}

function usageOf(u: ChatCompletion["usage"] | null | undefined): VendorReply["usage"] {
  if (!u) return undefined;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0 };
}

/** The refusal of a structured call is the model declining: content, not a transient failure. */
function refused(label: string, refusal: string | null | undefined): void {
  if (refusal) throw Object.assign(new Error(`${label} refused: ${refusal}`), { status: 400, code: "refusal" });
}

export async function sendChat(client: ChatClient, dialect: ChatDialect, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
  const response = (await client.chat.completions.create(chatRequest(dialect, model, input, false), { signal })) as ChatCompletion;
  const choice = response.choices?.[0];
  const msg = choice?.message;
  refused(dialect.label, msg?.refusal);
  const toolCalls = (msg?.tool_calls ?? []).flatMap((c) => (c.type === "function" ? [{ toolName: c.function.name, arguments: parseArguments(c.function.arguments), id: c.id }] : []));
  const text = msg?.content ?? "";
  if (!text && !toolCalls.length) throw new EmptyReply(dialect.label);
  return { ...finishReply(text, !!input.parameters?.jsonSchema), toolCalls, usage: usageOf(response.usage), responseModel: response.model, finishReason: choice?.finish_reason ?? undefined };
}

export async function* openChat(client: ChatClient, dialect: ChatDialect, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncGenerator<VendorChunk> {
  const stream = (await client.chat.completions.create(chatRequest(dialect, model, input, true), { signal })) as AsyncIterable<ChatCompletionChunk>;
  const text = new ReplyText(!!input.parameters?.jsonSchema);
  const calls: Array<{ id?: string; name: string; args: string }> = [];
  let usage: VendorReply["usage"];
  let responseModel: string | undefined;
  let finishReason: string | undefined;
  let refusal = "";
  for await (const chunk of stream) {
    responseModel = chunk.model || responseModel;
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const d = choice.delta;
    if (d?.refusal) refusal += d.refusal;
    for (const t of d?.tool_calls ?? []) {
      const at = (calls[t.index] ??= { name: "", args: "" });
      if (t.id) at.id = t.id;
      if (t.function?.name) at.name += t.function.name;
      if (t.function?.arguments) at.args += t.function.arguments;
    }
    const delta = d?.content ? text.push(d.content) : "";
    if (delta) yield { delta };
  }
  refused(dialect.label, refusal);
  const toolCalls = calls.filter(Boolean).map((c) => ({ toolName: c.name, arguments: parseArguments(c.args), ...(c.id ? { id: c.id } : {}) }));
  if (!text.raw && !toolCalls.length) throw new EmptyReply(dialect.label);
  yield { done: { ...finishReply(text.raw, !!input.parameters?.jsonSchema), toolCalls, usage, responseModel, finishReason } };
}
