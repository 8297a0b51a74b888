// What a frame from the harness child must look like (zod/mini: the parent validates every frame; the
// small build keeps the CLI's and the extension's start-up cheap).
import * as z from "zod/mini";
import type { ReportKind } from "../shared/report";
import type { ChildFrame } from "./channel-protocol";
import { driftFrame, modelCallFrame } from "./recordings-schema";

const REPORT_KINDS = ["seam", "agent", "turn", "simulate", "explore", "canReach", "trajectory", "request"] as const satisfies readonly ReportKind[];

const location = z.object({ file: z.string(), line: z.number(), column: z.number() });
const failure = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  expected: z.optional(z.unknown()),
  actual: z.optional(z.unknown()),
  operator: z.optional(z.string()),
  location: z.optional(location),
  stack: z.optional(z.string()),
});
const testPath = z.optional(z.array(z.string()));

const childFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("test-start"), test: z.string(), location: z.optional(location), path: testPath }),
  z.object({
    type: z.literal("test-end"), test: z.string(), status: z.enum(["passed", "failed", "skipped"]), durationMs: z.number(),
    location: z.optional(location), failure: z.optional(failure), path: testPath,
  }),
  z.object({ type: z.literal("result"), kind: z.enum(REPORT_KINDS), test: z.optional(z.string()), callSite: z.optional(location), data: z.unknown() }),
  z.object({ type: z.literal("console"), stream: z.enum(["stdout", "stderr"]), text: z.string(), test: z.optional(z.string()) }),
  z.object({ type: z.literal("fail"), test: z.optional(z.string()), failure }),
  z.object({ type: z.literal("done"), exitCode: z.number() }),
  modelCallFrame,
  driftFrame,
]);

/** The frame, or why it is not one. */
export function parseChildFrame(value: unknown): { ok: true; frame: ChildFrame } | { ok: false; reason: string } {
  const r = childFrameSchema.safeParse(value);
  if (r.success) return { ok: true, frame: r.data as ChildFrame };
  const issue = r.error.issues[0];
  return { ok: false, reason: issue ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "not a harness event" };
}
