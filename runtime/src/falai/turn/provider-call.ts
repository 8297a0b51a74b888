// One provider call, streamed or not, folded into one GenerateMessageOutput; its token counts added to the turn.
// Under the harness the call goes through its model-call interceptor (../model-calls.ts: recorded or replayed).
import { generateMessage, generateMessageStream } from "../model-calls";
import type { GenerateMessageInput, GenerateMessageOutput, ProviderToolCall } from "../types";
import type { DeltaSink, TurnState } from "./state";

export async function callProvider(s: TurnState, input: GenerateMessageInput, onDelta?: DeltaSink): Promise<GenerateMessageOutput> {
  const provider = s.engine.provider;
  s.llmCalls++;
  let out: GenerateMessageOutput;
  if (onDelta && typeof provider.generateMessageStream === "function" && provider.capabilities?.supportsStreaming !== false) {
    let accumulated = "";
    const folded: GenerateMessageOutput = { message: "" };
    for await (const chunk of generateMessageStream(provider, input, s.callSite)) {
      accumulated = typeof chunk.accumulated === "string" ? chunk.accumulated : accumulated + (chunk.delta ?? "");
      if (chunk.structured !== undefined) folded.structured = chunk.structured;
      if (chunk.toolCalls) folded.toolCalls = chunk.toolCalls;
      if (chunk.metadata) folded.metadata = chunk.metadata;
      onDelta(chunk.delta ?? "");
    }
    folded.message = accumulated;
    out = folded;
  } else {
    out = await generateMessage(provider, input, s.callSite);
    if (!out || typeof out !== "object") throw new Error(`${provider.name}: the provider returned ${out === undefined ? "nothing" : typeof out}, not { message, structured? }`);
    if (typeof out.message !== "string") out = { ...out, message: out.message === undefined || out.message === null ? "" : String(out.message) };
    onDelta?.(out.message);
  }
  addUsage(s, out.metadata);
  return out;
}

function addUsage(s: TurnState, metadata: Record<string, unknown> | undefined): void {
  if (!metadata) return;
  const n = (k: string) => (typeof metadata[k] === "number" && Number.isFinite(metadata[k]) ? (metadata[k] as number) : undefined);
  const prompt = n("promptTokens");
  const completion = n("completionTokens");
  const cached = n("cachedInputTokens");
  if (prompt === undefined && completion === undefined && cached === undefined) return;
  const u = (s.usage ??= { promptTokens: 0, completionTokens: 0, cachedInputTokens: 0 });
  u.promptTokens += prompt ?? 0;
  u.completionTokens += completion ?? 0;
  u.cachedInputTokens += cached ?? 0;
}

/** Tool calls at the top level of the reply or inside its structured envelope (as a scripted reply has them). */
export function toolCallsOf(out: GenerateMessageOutput): ProviderToolCall[] | undefined {
  if (out.toolCalls?.length) return out.toolCalls;
  const st = out.structured as { toolCalls?: unknown } | undefined;
  return st && typeof st === "object" && Array.isArray(st.toolCalls) && st.toolCalls.length ? (st.toolCalls as ProviderToolCall[]) : undefined;
}
