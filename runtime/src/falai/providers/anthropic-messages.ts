// The Messages dialect of @anthropic-ai/sdk. `system` is a list of text blocks: the config's, the call's (marked
// `cache_control: ephemeral`, the stable half the runtime splits out for caching), the history's system items,
// and — when a JSON schema is asked for — an instruction to answer with one JSON object matching it (upstream's
// capabilities: Anthropic has no native schema mode here, JSON is prompt-instructed). Messages alternate roles:
// assistant `tool_calls` become `tool_use` blocks, `tool` items `tool_result` blocks of the next user message,
// and the prompt the last user text. `max_tokens` is required: `parameters.maxOutputTokens`, else
// `config.max_tokens`, else 4096 (upstream's default).
import type { Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { GenerateMessageInput, HistoryItem } from "../types";
import { EmptyReply } from "./failures";
import { finishReply, jsonInstruction, parseArguments, ReplyText } from "./json-reply";
import type { VendorChunk, VendorReply } from "./base";

/** The part of the SDK client this file calls (structural, so no SDK type reaches the declarations). */
export interface MessagesClient {
  messages: { create(body: Record<string, unknown>, options: { signal: AbortSignal }): Promise<unknown> };
}

const DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface Turn {
  role: "user" | "assistant";
  content: Block[];
}

function systemBlocks(config: Record<string, unknown>, input: GenerateMessageInput): Block[] {
  const fromConfig = config.system;
  const blocks: Block[] = typeof fromConfig === "string" ? [{ type: "text", text: fromConfig }] : Array.isArray(fromConfig) ? [...(fromConfig as Block[])] : [];
  if (input.system) blocks.push({ type: "text", text: input.system, cache_control: { type: "ephemeral" } });
  for (const item of input.history ?? []) if (item.role === "system" && item.content) blocks.push({ type: "text", text: item.content });
  if (input.parameters?.jsonSchema) blocks.push({ type: "text", text: jsonInstruction(input.parameters.jsonSchema) });
  return blocks.filter((b) => b.type !== "text" || (typeof b.text === "string" && b.text.length > 0));
}

function blocksOf(item: HistoryItem): Turn | undefined {
  switch (item.role) {
    case "user":
      return item.content ? { role: "user", content: [{ type: "text", text: item.content }] } : undefined;
    case "assistant": {
      const content: Block[] = item.content ? [{ type: "text", text: item.content }] : [];
      for (const c of item.tool_calls ?? []) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.arguments ?? {} });
      return content.length ? { role: "assistant", content } : undefined;
    }
    case "tool":
      return { role: "user", content: [{ type: "tool_result", tool_use_id: item.tool_call_id, content: item.content }] };
    default:
      return undefined; // system items go to `system`
  }
}

/** History and prompt as alternating turns (consecutive items of one role share a message, tool results first). */
function messagesOf(input: GenerateMessageInput): Turn[] {
  const turns: Turn[] = [];
  const items = [...(input.history ?? []).map(blocksOf), { role: "user" as const, content: [{ type: "text", text: input.prompt }] }];
  for (const t of items) {
    if (!t) continue;
    const last = turns[turns.length - 1];
    if (last?.role === t.role) last.content.push(...t.content);
    else turns.push({ role: t.role, content: [...t.content] });
  }
  return turns;
}

function messagesRequest(config: Record<string, unknown>, model: string, input: GenerateMessageInput, stream: boolean): Record<string, unknown> {
  const p = input.parameters;
  const body: Record<string, unknown> = { ...config, model, max_tokens: p?.maxOutputTokens ?? config.max_tokens ?? DEFAULT_MAX_TOKENS, messages: messagesOf(input) };
  const system = systemBlocks(config, input);
  if (system.length) body.system = system;
  else delete body.system;
  if (input.tools?.length) body.tools = input.tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), input_schema: t.parameters }));
  if (p?.temperature !== undefined) body.temperature = p.temperature;
  if (stream) body.stream = true;
  return body;
}

function usageOf(u: Partial<Message["usage"]> | undefined, output?: number): VendorReply["usage"] {
  if (!u) return undefined;
  const read = u.cache_read_input_tokens ?? 0;
  return { promptTokens: (u.input_tokens ?? 0) + read + (u.cache_creation_input_tokens ?? 0), completionTokens: output ?? u.output_tokens ?? 0, cachedInputTokens: read };
}

export async function sendMessages(client: MessagesClient, label: string, config: Record<string, unknown>, model: string, input: GenerateMessageInput, signal: AbortSignal): Promise<VendorReply> {
  const response = (await client.messages.create(messagesRequest(config, model, input, false), { signal })) as Message;
  const text = response.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  const toolCalls = response.content.flatMap((b) => (b.type === "tool_use" ? [{ toolName: b.name, arguments: (b.input ?? {}) as Record<string, unknown>, id: b.id }] : []));
  if (!text && !toolCalls.length) throw new EmptyReply(label);
  return { ...finishReply(text, !!input.parameters?.jsonSchema), toolCalls, usage: usageOf(response.usage), responseModel: response.model, finishReason: response.stop_reason ?? undefined };
}

export async function* openMessages(client: MessagesClient, label: string, config: Record<string, unknown>, model: string, input: GenerateMessageInput, signal: AbortSignal): AsyncGenerator<VendorChunk> {
  const events = (await client.messages.create(messagesRequest(config, model, input, true), { signal })) as AsyncIterable<RawMessageStreamEvent>;
  const text = new ReplyText(!!input.parameters?.jsonSchema);
  const tools = new Map<number, { id: string; name: string; json: string }>();
  let started: Message | undefined;
  let output: number | undefined;
  let stop: string | undefined;
  for await (const e of events) {
    if (e.type === "message_start") started = e.message;
    else if (e.type === "content_block_start" && e.content_block.type === "tool_use") tools.set(e.index, { id: e.content_block.id, name: e.content_block.name, json: "" });
    else if (e.type === "content_block_delta" && e.delta.type === "input_json_delta") {
      const t = tools.get(e.index);
      if (t) t.json += e.delta.partial_json;
    } else if (e.type === "content_block_delta" && e.delta.type === "text_delta") {
      const delta = text.push(e.delta.text);
      if (delta) yield { delta };
    } else if (e.type === "message_delta") {
      output = e.usage?.output_tokens ?? output;
      stop = e.delta.stop_reason ?? stop;
    }
  }
  const toolCalls = [...tools.entries()].sort(([a], [b]) => a - b).map(([, t]) => ({ toolName: t.name, arguments: parseArguments(t.json), id: t.id }));
  if (!text.raw && !toolCalls.length) throw new EmptyReply(label);
  yield { done: { ...finishReply(text.raw, !!input.parameters?.jsonSchema), toolCalls, usage: usageOf(started?.usage, output), responseModel: started?.model, finishReason: stop } };
}
