// One provider call, streamed or not, folded into one GenerateMessageOutput.
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, ToolCall, UnderstandEnvelope } from "./types";

export type DeltaSink = (delta: string, accumulated: string) => void;

export async function callProvider(provider: AiProvider, input: GenerateMessageInput, onDelta?: DeltaSink): Promise<GenerateMessageOutput<unknown>> {
  if (!onDelta) return checked(await provider.generateMessage<unknown, unknown>(input));
  if (typeof provider.generateMessageStream !== "function" || provider.capabilities?.supportsStreaming === false) {
    // No stream: the whole reply is one chunk.
    const out = checked(await provider.generateMessage<unknown, unknown>(input));
    if (!toolCallsOf(out)?.length) onDelta(out.message, out.message);
    return out;
  }
  let accumulated = "";
  const folded: GenerateMessageOutput<unknown> = { message: "" };
  for await (const chunk of provider.generateMessageStream<unknown, unknown>(input)) {
    accumulated = typeof chunk.accumulated === "string" ? chunk.accumulated : accumulated + (chunk.delta ?? "");
    if (chunk.structured !== undefined) folded.structured = chunk.structured;
    if (chunk.toolCalls) folded.toolCalls = chunk.toolCalls;
    if (chunk.usage) folded.usage = chunk.usage;
    // A chunk that carries tool calls is not text for the customer.
    if (!toolCallsOf(folded)?.length) onDelta(chunk.delta ?? "", accumulated);
  }
  folded.message = accumulated;
  return folded;
}

function checked(out: GenerateMessageOutput<unknown>): GenerateMessageOutput<unknown> {
  if (!out || typeof out !== "object") throw new Error(`the provider returned ${out === undefined ? "nothing" : typeof out}, not { message, structured? }`);
  if (typeof out.message !== "string") return { ...out, message: out.message === undefined ? "" : String(out.message) };
  return out;
}

/** Tool calls at the top level of the reply or inside its structured envelope (as a scripted reply has them). */
export function toolCallsOf(out: GenerateMessageOutput<unknown>): ToolCall[] | undefined {
  if (out.toolCalls?.length) return out.toolCalls;
  const s = out.structured as { toolCalls?: unknown } | undefined;
  return s && typeof s === "object" && Array.isArray(s.toolCalls) && s.toolCalls.length ? (s.toolCalls as ToolCall[]) : undefined;
}

/** The structured reply, or the message parsed as JSON when the provider gave text only. */
/** The understand envelope with every section an object (a malformed section counts as empty). */
export function envelopeOf(out: GenerateMessageOutput<unknown>): UnderstandEnvelope {
  const raw = structuredOf(out);
  const section = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, never>) : {});
  const extract: Record<string, Record<string, unknown>> = {};
  for (const [flowId, values] of Object.entries(section(raw.extract))) extract[flowId] = section(values);
  return { flows: section(raw.flows), mentions: section(raw.mentions), extract, branches: section(raw.branches), fields: section(raw.fields) };
}

export function structuredOf(out: GenerateMessageOutput<unknown>): Record<string, unknown> {
  if (out.structured && typeof out.structured === "object") return out.structured as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(out.message);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return {};
}
