// The result channel between the harness child and its parent: a pipe on the child's file descriptor 3.
// User code runs in the child and can write to any of its descriptors, so the framing is one it cannot
// forge: the parent chooses a random secret for each child and hands it over on the control pipe (which is
// closed before any user code loads), the child's first line on the channel is a hello carrying it, and
// every frame after that is `<secret><sequence number> <JSON>\n`, numbered from 0. Bytes between frames are
// someone else's ("foreign"); a frame out of sequence was forged or replayed; a frame is validated against
// the schema (channel-schema.ts) and capped in size. Shared by the child and the parent; no zod here, so
// the child does not load it.
import type { HarnessEvent } from "@agent-lens/protocol";

export const CHANNEL_FD = 3;
export { CONTROL_FD } from "./control-protocol";
/** The hello line: `agent-lens-channel/2 <the secret: 32 lowercase hex>\n`. */
export const HELLO_PREFIX = "agent-lens-channel/2 ";
export const TOKEN_HEX_LENGTH = 32;
/** The largest frame the child writes and the parent accepts (sequence number and JSON; the secret and
 *  the newline excluded). */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** The events the child may send (the parent makes `start`, `end` and `recording` itself), plus `done`: the child's
 *  last word, written from its exit handler; without it the parent knows the run did not end normally. */
export type ChildEvent = Exclude<HarnessEvent, { type: "start" } | { type: "end" } | { type: "recording" }>;
export type ChildFrame = ChildEvent | { type: "done"; exitCode: number };
