// A scripted provider for the runtime tests (the document's, plus a record of every input it received).
// One queue per schema name; a dry queue throws, so an unexpected call fails the turn loudly (or, for
// speak, defers it — which the tests then see).
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk } from "@falai/agent";

export type Reply = Record<string, unknown>;

export interface Scripted extends AiProvider {
  calls: string[];
  inputs: GenerateMessageInput[];
}

export function scripted(script: { understand?: Reply[]; speak?: Reply[] }, options: { chunks?: (text: string) => string[] } = {}): Scripted {
  const queues: Record<string, Reply[]> = { understand: [...(script.understand ?? [])], speak: [...(script.speak ?? [])] };
  const calls: string[] = [];
  const inputs: GenerateMessageInput[] = [];
  function next<T>(input: GenerateMessageInput): GenerateMessageOutput<T> {
    const name = input.parameters?.schemaName ?? "(unnamed)";
    calls.push(name);
    inputs.push(structuredClone(input));
    const reply = queues[name]?.shift();
    if (!reply) throw new Error(`no scripted "${name}" reply left for call #${calls.length}`);
    const message = typeof reply.message === "string" ? reply.message : JSON.stringify(reply);
    return { message, structured: reply as T, ...(reply.usage ? { usage: reply.usage as GenerateMessageOutput["usage"] } : {}) };
  }
  return {
    name: "scripted",
    calls,
    inputs,
    capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false },
    generateMessage: <_C, T>(input: GenerateMessageInput) => Promise.resolve().then(() => next<T>(input)),
    async *generateMessageStream<_C, T>(input: GenerateMessageInput): AsyncGenerator<GenerateMessageStreamChunk<T>> {
      const out = next<T>(input);
      const parts = options.chunks ? options.chunks(out.message) : [out.message];
      let accumulated = "";
      for (let i = 0; i < parts.length; i++) {
        accumulated += parts[i];
        await Promise.resolve();
        const last = i === parts.length - 1;
        yield { delta: parts[i]!, accumulated, done: last, ...(last ? { structured: out.structured } : {}) };
      }
    },
  };
}

/** An empty understand envelope with some sections filled. */
export const understood = (sections: Reply = {}): Reply => ({ flows: {}, mentions: {}, extract: {}, branches: {}, fields: {}, ...sections });
