// recordedProvider: a provider that answers from a recording made by `agent-lens run --record`
// (`__recordings__/<file>.json`), for replaying a test in code without the harness. Each call is matched by
// its schemaName and occurrence and its input compared with the recorded one; a call that drifted (its input
// changed, or the recording has no such call) throws ReplayDriftError, which rejects the turn (it is not a
// model failure a step could wait out). A streamed call's recorded chunks stream again. Not upstream's: the
// library has no record / replay helper (falai-dev/agent src/providers, docs/guides/testing.md); named like
// the guide's `scripted()` provider.
import { markUnrecorded, ReplayDriftError } from "../shared/model-calls";
import { recordedCallsOf, type RecordedCall } from "../shared/recording/format";
import { TestReplay, type Drift } from "../shared/recording/replayer";
import { callKey, providerInput, rebuildProviderError } from "./model-calls";
import type { AiProvider, GenerateMessageInput, GenerateMessageOutput, GenerateMessageStreamChunk } from "./types";

export interface RecordedProviderOptions {
  /** The test whose calls answer, when `recording` is a whole recording file holding several. */
  test?: string;
  /** The provider's name (default "recorded"). */
  name?: string;
}

export interface RecordedProvider extends AiProvider {
  /** The first drift, once a call drifted. */
  readonly drift: Drift | undefined;
  /** Recorded calls no call has taken (yet). */
  remaining(): RecordedCall[];
}

/** A provider answering from `recording` (a recording file's JSON, one test's `{ recordedAt, calls }`, or its calls). */
export function recordedProvider(recording: unknown, options: RecordedProviderOptions = {}): RecordedProvider {
  const calls = recordedCallsOf(recording, options?.test, "falai");
  if (typeof calls === "string") throw new TypeError(`recordedProvider: ${calls}.`);
  const replay = new TestReplay(calls);
  const taken = new Set<RecordedCall>();
  /** The recorded call for this input (a drift throws); its failure is thrown by the caller. */
  const answer = (input: GenerateMessageInput, stream: boolean): RecordedCall => {
    const step = replay.next({ library: "falai", key: callKey(input), input: providerInput(input, stream) });
    if (step.drift) {
      const diff = step.drift.diff?.length ? `\n${step.drift.diff.join("\n")}` : "";
      throw new ReplayDriftError(`${step.drift.message}${diff}`);
    }
    taken.add(step.recorded);
    return step.recorded;
  };
  const provider: RecordedProvider = {
    name: options?.name ?? "recorded",
    capabilities: { supportsTools: true, supportsNativeJsonSchema: true, supportsStreaming: true, supportsStreamingToolCalls: true, supportsPromptCaching: false },
    generateMessage: <_C, T>(input: GenerateMessageInput) => Promise.resolve().then(() => {
      const call = answer(input, false);
      if (call.error) throw rebuildProviderError(call.error);
      return structuredClone(call.output) as GenerateMessageOutput<T>;
    }),
    // A stream that failed part-way replays its chunks, then its failure.
    async *generateMessageStream<_C, T>(input: GenerateMessageInput): AsyncGenerator<GenerateMessageStreamChunk<T>> {
      const call = answer(input, true);
      yield* structuredClone((call.output as { chunks?: GenerateMessageStreamChunk<T>[] } | undefined)?.chunks ?? []);
      if (call.error) throw rebuildProviderError(call.error);
    },
    get drift() {
      return replay.drift;
    },
    remaining: () => calls.filter((c) => !taken.has(c)),
  };
  return markUnrecorded(provider);
}
