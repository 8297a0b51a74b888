// The child's end of the result channel (see ../channel-protocol.ts): the secret the parent chose for this
// child is read from the control pipe before anything else runs, the hello carries it, and every frame after
// it is `<secret><sequence number> <JSON>\n`, written synchronously so nothing is lost when the process
// exits. The secret lives only in this module's closure, and frames are built and written only with the
// built-ins captured before any user code loaded (./primordials.ts): a file that patches Buffer.from,
// JSON.stringify, fs.writeSync or Object.prototype.toJSON cannot see or rewrite them.
import { P } from "./primordials"; // first: nothing may be patched before these are taken
import { readSync } from "node:fs";
import { CHANNEL_FD, CONTROL_FD, HELLO_PREFIX, MAX_FRAME_BYTES, TOKEN_HEX_LENGTH, type ChildFrame } from "../channel-protocol";
import { encodeJson, type Redaction } from "./json-safe";
import { secretValues } from "../../shared/recording/redact";

/** The secret: the first line on the control pipe (32 lowercase hex digits), read byte for byte so
 *  nothing after it is taken from the control reader (./control.ts). */
function readSecret(): string | undefined {
  const line = Buffer.alloc(TOKEN_HEX_LENGTH + 1);
  for (let got = 0; got < line.length;) {
    let n: number;
    try {
      n = readSync(CONTROL_FD, line, got, line.length - got, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue;
      return undefined;
    }
    if (n <= 0) return undefined;
    got += n;
  }
  const text = line.toString("latin1");
  return /^[0-9a-f]{32}\n$/.test(text) ? text.slice(0, TOKEN_HEX_LENGTH) : undefined;
}

const secret = readSecret();
// No secret: the parent went away before it wrote one, or this is not a harness child. Nobody to report to.
if (secret === undefined) process.exit(0);
let sequence = 0;
let broken = false;

function write(text: string): void {
  if (broken) return;
  const bytes = P.bufferFrom(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += P.writeSync(CHANNEL_FD, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue; // a full non-blocking pipe: retry
      broken = true; // the parent is gone, or user code closed the descriptor: the parent will notice
      return;
    }
  }
}

write(`${HELLO_PREFIX}${secret}\n`);

const CONSOLE_SLICE = 1024 * 1024;
const NOTE_LIMIT = 100_000;
/** A frame's JSON, leaving room under the cap for its sequence number. */
const MAX_JSON_BYTES = MAX_FRAME_BYTES - 32;

function note(text: string): string {
  return encodeJson({ type: "console", stream: "stderr", text: `agent-lens: ${text}\n` });
}

/** The event with its user-supplied parts cut down to what can always be sent: the kind of event, its
 *  test and status stay, so a verdict never depends on whether the file's data could be serialised. */
function reduced(event: ChildFrame, why: string): ChildFrame {
  if (event.type === "result") return { ...event, data: { "agent-lens": `The ${event.kind} result was ${why}.` } };
  if (event.type === "fail" || (event.type === "test-end" && event.failure)) {
    const f = event.failure!;
    const message = typeof f.message === "string" ? P.stringSlice(f.message, 0, NOTE_LIMIT) : `(a failure whose message was ${why})`;
    return { ...event, failure: { message, code: f.code, location: f.location } } as ChildFrame;
  }
  return event;
}

/** The event as JSON no larger than the frame cap: long console text is split, an oversized or unreadable
 *  payload is replaced by a note saying so. */
function serialise(event: ChildFrame): string[] {
  if (event.type === "console" && event.text.length > CONSOLE_SLICE) {
    const out: string[] = [];
    for (let i = 0; i < event.text.length; i += CONSOLE_SLICE) {
      const part = serialise({ ...event, text: P.stringSlice(event.text, i, i + CONSOLE_SLICE) });
      for (let j = 0; j < part.length; j++) out[out.length] = part[j]!;
    }
    return out;
  }
  let json: string | undefined;
  // No frame carries a secret of the environment; a model call is kept whole (../../shared/recording/redact.ts).
  const redaction: Redaction = { secrets: secretValues(), whole: event.type === "model-call" };
  try {
    json = encodeJson(event, redaction);
  } catch (error) {
    json = attempt(reduced(event, "not serialisable"), redaction);
    if (json === undefined) return [note(`could not serialise a ${event.type} event: ${describe(error)}`)];
  }
  const bytes = P.byteLength(json);
  if (bytes <= MAX_JSON_BYTES) return [json];
  const why = `too large to report (${bytes} bytes of JSON; the limit is ${MAX_JSON_BYTES})`;
  const smaller = attempt(reduced(event, why), redaction);
  return [smaller !== undefined && P.byteLength(smaller) <= MAX_JSON_BYTES ? smaller : note(`a ${event.type} event was ${why}`)];
}

function attempt(event: ChildFrame, redaction: Redaction): string | undefined {
  try {
    return encodeJson(event, redaction);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  try {
    return typeof error === "object" && error !== null && typeof (error as Error).message === "string" ? (error as Error).message : typeof error;
  } catch {
    return "unknown error";
  }
}

export function emit(event: ChildFrame): void {
  const frames = serialise(event);
  for (let i = 0; i < frames.length; i++) write(`${secret}${sequence++} ${frames[i]}\n`);
}
