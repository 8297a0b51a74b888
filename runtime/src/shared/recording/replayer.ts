// Replaying one test's recorded calls: each call is matched by (key, occurrence) — the how-many-th call of
// that request name / schemaName in the test — and its input compared with the recorded one. The first
// call whose input differs, a call the recording does not have, or (at the end) a recorded call that never
// came, is drift: the call is not answered (and never goes live). Shared by the harness child and the
// library-level replays (createRecordedExecutors, recordedProvider).
import type { ModelLibrary } from "../model-calls";
import { canonical } from "./canonical";
import type { RecordedCall } from "./format";
import { changedFields, describeChange, inputDiff } from "./input-diff";
import { redact } from "./redact";

export type DriftReason = "changed" | "unexpected" | "missing";

export interface Drift {
  reason: DriftReason;
  /** 1-based position of the call among the test's calls (for `missing`: among the recorded calls). */
  index: number;
  library: ModelLibrary;
  key: string;
  occurrence: number;
  model?: string;
  /** "replay drifted at call #2 (request "draftEmail", occurrence 1): the prompt changed". */
  message: string;
  /** The input fields that differ (`changed`). */
  changed?: string[];
  /** The compact diff of the input (`changed`): "- " recorded, "+ " now. */
  diff?: string[];
}

export interface LiveCall {
  library: ModelLibrary;
  key: string;
  model?: string;
  /** The input as the call makes it (plain data: redacted and ordered here). */
  input: unknown;
}

export type ReplayStep =
  | { index: number; occurrence: number; input: unknown; recorded: RecordedCall; drift?: undefined }
  | { index: number; occurrence: number; input: unknown; recorded?: undefined; drift: Drift };

/** The input as it is recorded: secrets redacted, keys sorted. */
export function recordedFormOf(input: unknown): unknown {
  return redact(canonical(input));
}

function noun(library: ModelLibrary): string {
  return library === "stately" ? "request" : "call";
}

function driftHeadline(index: number, library: ModelLibrary, key: string, occurrence: number): string {
  return `replay drifted at call #${index} (${noun(library)} ${JSON.stringify(key)}, occurrence ${occurrence})`;
}

export class TestReplay {
  private readonly counts = new Map<string, number>();
  private readonly used = new Set<RecordedCall>();
  private calls = 0;
  /** The test's first drift: every later call is refused with it. */
  drift: Drift | undefined;

  constructor(readonly recorded: readonly RecordedCall[]) {}

  /** Matches the next call. A drift is kept (the first one) and returned; so is the recorded call. */
  next(call: LiveCall): ReplayStep {
    const index = ++this.calls;
    const countKey = `${call.library}\u0000${call.key}`;
    const occurrence = (this.counts.get(countKey) ?? 0) + 1;
    this.counts.set(countKey, occurrence);
    const input = recordedFormOf(call.input);
    const recorded = this.recorded.find((r) => r.library === call.library && r.key === call.key && r.occurrence === occurrence);
    const headline = driftHeadline(index, call.library, call.key, occurrence);
    let drift: Drift | undefined;
    if (!recorded) {
      const had = this.recorded.filter((r) => r.library === call.library && r.key === call.key).length;
      drift = {
        reason: "unexpected", index, library: call.library, key: call.key, occurrence, ...(call.model ? { model: call.model } : {}),
        message: `${headline}: the recording of this test has no such call (it recorded ${had} ${JSON.stringify(call.key)} call${had === 1 ? "" : "s"})`,
      };
    } else {
      const was = canonical(recorded.input); // a hand-edited file may have its keys in another order
      const fields = changedFields(was, input);
      if (recorded.model !== undefined && call.model !== undefined && recorded.model !== call.model && !fields.includes("model")) fields.push("model");
      if (fields.length) {
        const before = fields.includes("model") ? { ...asObject(was), model: recorded.model } : was;
        const after = fields.includes("model") ? { ...asObject(input), model: call.model } : input;
        drift = {
          reason: "changed", index, library: call.library, key: call.key, occurrence, ...(call.model ? { model: call.model } : {}),
          message: `${headline}: ${describeChange(fields)}`, changed: fields, diff: inputDiff(before, after),
        };
      }
    }
    if (drift) {
      this.drift ??= drift;
      return { index, occurrence, input, drift: this.drift };
    }
    if (this.drift) return { index, occurrence, input, drift: this.drift };
    this.used.add(recorded!);
    return { index, occurrence, input, recorded: recorded! };
  }

  /** At the test's end: the first recorded call that never came (none after a drift: that one is the news). */
  missing(): Drift | undefined {
    if (this.drift) return undefined;
    const index = this.recorded.findIndex((r) => !this.used.has(r));
    if (index < 0) return undefined;
    const r = this.recorded[index]!;
    return {
      reason: "missing", index: index + 1, library: r.library, key: r.key, occurrence: r.occurrence, ...(r.model ? { model: r.model } : {}),
      message: `${driftHeadline(index + 1, r.library, r.key, r.occurrence)}: the recording has this call, and the test no longer makes it`,
    };
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}
