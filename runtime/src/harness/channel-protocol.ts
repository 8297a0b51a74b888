// The result channel between the harness child and its parent: a pipe on the child's file descriptor 3.
// User code runs in the child and can write to any of its descriptors, so the framing is one it cannot
// forge: the child's first line is a hello carrying a random token it made before any user code loaded
// (kept in a closure: not in the environment, the command line or a file), and every frame after that
// is `<token><JSON>\n`. Bytes between frames are someone else's ("foreign"); a frame is validated
// against the schema (channel-schema.ts) and capped in size. Shared by the child and the parent; no zod
// here, so the child does not load it.
import type { FailureInfo, HarnessEvent } from "@agent-lens/protocol";

export const CHANNEL_FD = 3;
/** The hello line: `agent-lens-channel/1 <32 lowercase hex>\n`. */
export const HELLO_PREFIX = "agent-lens-channel/1 ";
export const TOKEN_HEX_LENGTH = 32;
/** The largest frame the child writes and the parent accepts (token and newline excluded). */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** The events the child may send (the parent makes `start` and `end` itself), plus `done`: the child's
 *  last word, written from its exit handler; without it the parent knows the run did not end normally. */
export type ChildEvent = Exclude<HarnessEvent, { type: "start" } | { type: "end" }>;
export type ChildFrame = ChildEvent | { type: "done"; exitCode: number };

export type { FailureInfo };
