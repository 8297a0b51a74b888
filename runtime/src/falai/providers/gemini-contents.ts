// The generateContent dialect of @google/genai. `systemInstruction`: the config's, the call's `system`, the
// history's system items. `contents`: user turns and `model` turns (assistant `tool_calls` as `functionCall` parts,
// `tool` items as `functionResponse` parts of the next user turn, `{ output }` or `{ error }`), the prompt last.
// Tools as `functionDeclarations` with `parametersJsonSchema`. A JSON schema as `responseMimeType:
// "application/json"` + `responseJsonSchema` — except in a call that also offers tools, where the JSON is asked
// for in the system instruction (Gemini 2.x refuses a JSON response type beside function calling).
// Gemini 3 wants each function call sent back with the `thoughtSignature` it came with: the provider remembers
// the signatures of the calls it returned (ThoughtSignatures) and, for a call it never saw, sends the value
// Google documents for calls made elsewhere.
import type { GenerateContentResponse } from "@google/genai";
import type { GenerateMessageInput, HistoryItem } from "../types";
import { EmptyReply } from "./failures";
import { finishReply, jsonInstruction, ReplyText } from "./json-reply";
import type { VendorChunk, VendorReply } from "./base";

/** The part of the SDK client this file calls (structural, so no SDK type reaches the declarations). */
export interface ContentClient {
  models: {
    generateContent(params: Record<string, unknown>): Promise<unknown>;
    generateContentStream(params: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  };
}

type Part = Record<string, unknown>;
interface Content {
  role: "user" | "model";
  parts: Part[];
}

/** Google's documented stand-in signature for a function call the model did not just return. */
const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

/** The signatures of the function calls this provider returned, by call (name and arguments), newest kept. */
export class ThoughtSignatures {
  private readonly byCall = new Map<string, string>();
  private static key(name: string, args: unknown): string {
    return `${name}\u0000${JSON.stringify(args ?? {})}`;
  }
  remember(name: string, args: unknown, signature: string): void {
    const key = ThoughtSignatures.key(name, args);
    this.byCall.delete(key);
    this.byCall.set(key, signature);
    if (this.byCall.size > 200) this.byCall.delete(this.byCall.keys().next().value!);
  }
  of(name: string, args: unknown): string | undefined {
    return this.byCall.get(ThoughtSignatures.key(name, args));
  }
}

function responseOf(content: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(content);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const keys = Object.keys(parsed);
      if (keys.length === 1 && keys[0] === "error") return parsed as Record<string, unknown>;
    }
    return { output: parsed };
  } catch {
    return { output: content };
  }
}

function contentOf(item: HistoryItem, signatures: ThoughtSignatures): Content | undefined {
  switch (item.role) {
    case "user":
      return item.content ? { role: "user", parts: [{ text: item.content }] } : undefined;
    case "assistant": {
      const parts: Part[] = item.content ? [{ text: item.content }] : [];
      (item.tool_calls ?? []).forEach((c, i) => {
        const signature = signatures.of(c.name, c.arguments) ?? (i === 0 ? FOREIGN_CALL_SIGNATURE : undefined);
        parts.push({ functionCall: { name: c.name, args: c.arguments ?? {} }, ...(signature ? { thoughtSignature: signature } : {}) });
      });
      return parts.length ? { role: "model", parts } : undefined;
    }
    case "tool":
      return { role: "user", parts: [{ functionResponse: { name: item.name, response: responseOf(item.content) } }] };
    default:
      return undefined; // system items go to systemInstruction
  }
}

function contentsOf(input: GenerateMessageInput, signatures: ThoughtSignatures): Content[] {
  const out: Content[] = [];
  for (const c of [...(input.history ?? []).map((h) => contentOf(h, signatures)), { role: "user" as const, parts: [{ text: input.prompt }] }]) {
    if (!c) continue;
    const last = out[out.length - 1];
    if (last?.role === c.role) last.parts.push(...c.parts);
    else out.push({ role: c.role, parts: [...c.parts] });
  }
  return out;
}

function systemOf(config: Record<string, unknown>, input: GenerateMessageInput, jsonByPrompt: boolean): { parts: Part[] } | undefined {
  const own = config.systemInstruction;
  const parts: Part[] = typeof own === "string" ? [{ text: own }] : own && typeof own === "object" && Array.isArray((own as { parts?: unknown }).parts) ? [...(own as { parts: Part[] }).parts] : [];
  if (input.system) parts.push({ text: input.system });
  for (const item of input.history ?? []) if (item.role === "system" && item.content) parts.push({ text: item.content });
  if (jsonByPrompt) parts.push({ text: jsonInstruction(input.parameters!.jsonSchema) });
  return parts.length ? { parts } : undefined;
}

function contentRequest(config: Record<string, unknown>, model: string, input: GenerateMessageInput, signatures: ThoughtSignatures, signal: AbortSignal): Record<string, unknown> {
  const p = input.parameters;
  const tools = input.tools ?? [];
  const jsonByPrompt = !!p?.jsonSchema && tools.length > 0;
  const c: Record<string, unknown> = { ...config, abortSignal: signal };
  const system = systemOf(config, input, jsonByPrompt);
  if (system) c.systemInstruction = system;
  else delete c.systemInstruction;
  if (tools.length) c.tools = [{ functionDeclarations: tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parametersJsonSchema: t.parameters })) }];
  if (p?.jsonSchema && !jsonByPrompt) {
    c.responseMimeType = "application/json";
    c.responseJsonSchema = p.jsonSchema;
  }
  if (p?.temperature !== undefined) c.temperature = p.temperature;
  if (p?.maxOutputTokens !== undefined) c.maxOutputTokens = p.maxOutputTokens;
  return { model, contents: contentsOf(input, signatures), config: c };
}

const BLOCKED = new Set(["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION", "IMAGE_SAFETY"]);

/** What one response (or one streamed chunk) holds. */
function read(r: GenerateContentResponse, signatures: ThoughtSignatures) {
  const candidate = r.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const text = parts.flatMap((p) => (typeof p.text === "string" && !p.thought ? [p.text] : [])).join("");
  const calls = parts.flatMap((p) => {
    if (!p.functionCall?.name) return [];
    const args = (p.functionCall.args ?? {}) as Record<string, unknown>;
    if (p.thoughtSignature) signatures.remember(p.functionCall.name, args, p.thoughtSignature);
    return [{ toolName: p.functionCall.name, arguments: args, ...(p.functionCall.id ? { id: p.functionCall.id } : {}) }];
  });
  const u = r.usageMetadata;
  const usage = u ? { promptTokens: u.promptTokenCount ?? 0, completionTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0), cachedInputTokens: u.cachedContentTokenCount ?? 0 } : undefined;
  return { text, calls, usage, finish: candidate?.finishReason as string | undefined, block: r.promptFeedback?.blockReason as string | undefined, model: r.modelVersion };
}

/** Nothing came back: a block (the model declining: content, not retried) or upstream's "No response from Gemini". */
function nothing(label: string, finish: string | undefined, block: string | undefined): Error {
  if (block || (finish && BLOCKED.has(finish))) return Object.assign(new Error(`${label} returned nothing: ${block ? `the prompt was blocked (${block})` : `finish reason ${finish}`}`), { code: "refusal" });
  return new EmptyReply(label);
}

export async function sendContent(client: ContentClient, label: string, config: Record<string, unknown>, model: string, input: GenerateMessageInput, signatures: ThoughtSignatures, signal: AbortSignal): Promise<VendorReply> {
  const r = read((await client.models.generateContent(contentRequest(config, model, input, signatures, signal))) as GenerateContentResponse, signatures);
  if (!r.text && !r.calls.length) throw nothing(label, r.finish, r.block);
  return { ...finishReply(r.text, !!input.parameters?.jsonSchema), toolCalls: r.calls, usage: r.usage, responseModel: r.model, finishReason: r.finish };
}

export async function* openContent(client: ContentClient, label: string, config: Record<string, unknown>, model: string, input: GenerateMessageInput, signatures: ThoughtSignatures, signal: AbortSignal): AsyncGenerator<VendorChunk> {
  const chunks = await client.models.generateContentStream(contentRequest(config, model, input, signatures, signal));
  const text = new ReplyText(!!input.parameters?.jsonSchema);
  const calls: VendorReply["toolCalls"] = [];
  let usage: VendorReply["usage"];
  let finish: string | undefined;
  let block: string | undefined;
  let responseModel: string | undefined;
  for await (const chunk of chunks) {
    const r = read(chunk as GenerateContentResponse, signatures);
    calls.push(...r.calls);
    usage = r.usage ?? usage;
    finish = r.finish ?? finish;
    block = r.block ?? block;
    responseModel = r.model ?? responseModel;
    const delta = r.text ? text.push(r.text) : "";
    if (delta) yield { delta };
  }
  if (!text.raw && !calls.length) throw nothing(label, finish, block);
  yield { done: { ...finishReply(text.raw, !!input.parameters?.jsonSchema), toolCalls: calls, usage, responseModel, finishReason: finish } };
}
