// A scripted provider for the runtime tests: one queue per schema name (the testing document's), plus a record of
// every input it received. An entry may be a reply, a function of the input, or an Error to throw. A dry queue
// throws, so an unexpected call fails loudly.
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk } from "@falai/agent";

export type Reply = Record<string, unknown>;
export type Entry = Reply | Error | ((input: GenerateMessageInput) => Reply);

export interface Scripted extends AiProvider {
  calls: string[];
  inputs: GenerateMessageInput[];
  remaining(): Record<string, number>;
}

export function scripted(script: Record<string, Entry[]>, options: { chunks?: (text: string) => string[]; usage?: boolean } = {}): Scripted {
  const queues = new Map(Object.entries(script).map(([k, v]) => [k, [...v]]));
  const calls: string[] = [];
  const inputs: GenerateMessageInput[] = [];
  function next<T>(input: GenerateMessageInput): GenerateMessageOutput<T> {
    const name = input.parameters?.schemaName ?? "(unnamed)";
    calls.push(name);
    inputs.push(structuredClone(input));
    const entry = queues.get(name)?.shift();
    if (entry === undefined) throw new Error(`no scripted "${name}" reply left for call #${calls.length}`);
    if (entry instanceof Error) throw entry;
    const reply = typeof entry === "function" ? entry(input) : entry;
    const message = typeof reply.message === "string" ? reply.message : JSON.stringify(reply);
    const metadata = options.usage ? { promptTokens: input.prompt.length, completionTokens: message.length, cachedInputTokens: 1 } : undefined;
    return { message, structured: reply as T, ...(metadata ? { metadata } : {}) };
  }
  return {
    name: "scripted",
    calls,
    inputs,
    remaining: () => Object.fromEntries([...queues].map(([k, v]) => [k, v.length])),
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
        yield { delta: parts[i]!, accumulated, done: last, ...(last ? { structured: out.structured, ...(out.metadata ? { metadata: out.metadata } : {}) } : {}) };
      }
    },
  };
}

/** An understand envelope with every section present, some filled. */
export const understood = (sections: Reply = {}): Reply => ({ flows: {}, mentions: {}, extract: {}, branches: {}, fields: {}, ...sections });
/** A speak envelope: the message plus field values. */
export const spoken = (message: string, fields: Reply = {}): Reply => ({ message, ...fields });

export const T0 = "2026-09-20T10:00:00.000Z";
export const MS0 = Date.parse(T0);
