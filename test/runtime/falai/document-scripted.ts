// The document's scripted provider module, verbatim (003 "A scripted provider"): it must typecheck against
// our types under the root tsconfig (strict) and drive a turn (see document-scripted.test.ts).
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk } from "@falai/agent";

type Reply = Record<string, unknown>;

export interface Scripted extends AiProvider {
  /** Every call's schema name, in order. */
  calls: string[];
}

export function scripted(script: { understand?: Reply[]; speak?: Reply[] }): Scripted {
  const queues: Record<string, Reply[]> = { understand: [...(script.understand ?? [])], speak: [...(script.speak ?? [])] };
  const calls: string[] = [];

  function next<T>(input: GenerateMessageInput): GenerateMessageOutput<T> {
    const name = input.parameters?.schemaName ?? "(unnamed)";
    calls.push(name);
    const reply = queues[name]?.shift();
    if (!reply) throw new Error(`no scripted "${name}" reply left for call #${calls.length}`);
    const message = typeof reply.message === "string" ? reply.message : JSON.stringify(reply);
    return { message, structured: reply as T };
  }

  return {
    name: "scripted",
    calls,
    capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false },
    generateMessage: <_C, T>(input: GenerateMessageInput) => Promise.resolve().then(() => next<T>(input)),
    // eslint-disable-next-line @typescript-eslint/require-await -- one chunk, nothing to await
    async *generateMessageStream<_C, T>(input: GenerateMessageInput): AsyncGenerator<GenerateMessageStreamChunk<T>> {
      const out = next<T>(input);
      yield { delta: out.message, accumulated: out.message, done: true, structured: out.structured };
    },
  };
}
