// What the child's `model-call` and `drift` frames must look like (zod/mini, like channel-schema.ts, which
// lists them with the other frames). Inputs and outputs are any JSON: the recording keeps what the call had.
import * as z from "zod/mini";

const location = z.object({ file: z.string(), line: z.number(), column: z.number() });
const library = z.enum(["stately", "falai"]);
const count = z.number().check(z.int(), z.minimum(1));
const usage = z.object({ inputTokens: z.optional(z.number()), outputTokens: z.optional(z.number()), cachedInputTokens: z.optional(z.number()) });

export const modelCallFrame = z.object({
  type: z.literal("model-call"),
  test: z.string(),
  call: z.object({
    index: count, library, key: z.string(), occurrence: count, model: z.optional(z.string()), source: z.enum(["live", "replayed"]),
    recordedAt: z.optional(z.string()), usage: z.optional(usage), callSite: z.optional(location),
    input: z.unknown(), output: z.optional(z.unknown()), error: z.optional(z.looseObject({ name: z.string(), message: z.string() })),
  }),
});

export const driftFrame = z.object({
  type: z.literal("drift"),
  test: z.string(),
  drift: z.object({
    reason: z.enum(["changed", "unexpected", "missing", "not-recorded"]), index: count, library, key: z.string(), occurrence: count,
    model: z.optional(z.string()), message: z.string(), changed: z.optional(z.array(z.string())), diff: z.optional(z.array(z.string())),
    recording: z.string(), rerecord: z.string(), callSite: z.optional(location),
  }),
});
