// The child's end of the result channel (see ../channel-protocol.ts): a hello with a token made here,
// before any user code loads, then one `<token><JSON>\n` frame per event, written synchronously so
// nothing is lost when the process exits. The token lives only in this module's closure.
import { writeSync } from "node:fs";
import { CHANNEL_FD, HELLO_PREFIX, MAX_FRAME_BYTES, TOKEN_HEX_LENGTH, type ChildFrame } from "../channel-protocol";
import { toJsonSafe } from "./json-safe";
import { randomHex } from "../random-hex";

const token = randomHex(TOKEN_HEX_LENGTH / 2);
// Taken now, before user code can replace them on the shared module objects.
const writeToFd = writeSync;
const stringify = JSON.stringify;
let broken = false;

function write(text: string): void {
  if (broken) return;
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeToFd(CHANNEL_FD, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue; // a full non-blocking pipe: retry
      broken = true; // the parent is gone, or user code closed the descriptor: the parent will notice
      return;
    }
  }
}

write(`${HELLO_PREFIX}${token}\n`);

const CONSOLE_SLICE = 1024 * 1024;

/** The event as JSON no larger than the frame cap: long console text is split, an oversized payload
 *  is replaced by a note saying so. */
function serialise(event: ChildFrame): string[] {
  if (event.type === "console" && event.text.length > CONSOLE_SLICE) {
    const out: string[] = [];
    for (let i = 0; i < event.text.length; i += CONSOLE_SLICE) out.push(...serialise({ ...event, text: event.text.slice(i, i + CONSOLE_SLICE) }));
    return out;
  }
  let json: string;
  try {
    json = stringify(toJsonSafe(event));
  } catch (error) {
    json = JSON.stringify({ type: "console", stream: "stderr", text: `agent-lens: could not serialise a ${event.type} event: ${String(error)}\n` });
  }
  if (Buffer.byteLength(json) <= MAX_FRAME_BYTES) return [json];
  const note = `too large to report (${Buffer.byteLength(json)} bytes of JSON; the limit is ${MAX_FRAME_BYTES})`;
  const smaller: ChildFrame =
    event.type === "result" ? { ...event, data: { "agent-lens": `The ${event.kind} result was ${note}.` } }
    : event.type === "fail" ? { ...event, failure: { message: event.failure.message.slice(0, 100_000), code: event.failure.code, location: event.failure.location } }
    : event.type === "test-end" && event.failure ? { ...event, failure: { message: event.failure.message.slice(0, 100_000), code: event.failure.code, location: event.failure.location } }
    : { type: "console", stream: "stderr", text: `agent-lens: a ${event.type} event was ${note}\n` };
  const again = JSON.stringify(toJsonSafe(smaller));
  return [Buffer.byteLength(again) <= MAX_FRAME_BYTES ? again : JSON.stringify({ type: "console", stream: "stderr", text: `agent-lens: a ${event.type} event was ${note}\n` })];
}

export function emit(event: ChildFrame): void {
  for (const json of serialise(event)) write(`${token}${json}\n`);
}
