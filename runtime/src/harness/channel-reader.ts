// The parent's reader of the result channel (see channel-protocol.ts). Made with the secret the parent
// gave the child, and fed raw chunks as they arrive, it returns what they held: frames (in sequence,
// parsed and validated), foreign bytes (anything outside a frame: user code or a grandchild writing to
// descriptor 3, or a hello with another secret) and invalid frames (the secret, but out of sequence, not
// JSON, not an event, or over the size cap). It never throws and never holds more than one frame in
// memory: a 600 MB line is counted and dropped as it streams by.
import { HELLO_PREFIX, MAX_FRAME_BYTES, type ChildFrame } from "./channel-protocol";
import type { parseChildFrame as ParseChildFrame } from "./channel-schema";

let parseChildFrame: typeof ParseChildFrame | undefined;

/** Loads the frame schema (zod/mini, a few ms). Done on first use, or earlier by runEvalFile right after it
 *  hands the child its file, so the load overlaps the child's work instead of delaying it. */
export function loadFrameSchema(): typeof ParseChildFrame {
  parseChildFrame ??= (require("./channel-schema") as typeof import("./channel-schema")).parseChildFrame;
  return parseChildFrame;
}

export type ChannelItem =
  | { kind: "frame"; frame: ChildFrame }
  | { kind: "foreign"; bytes: number; head: Buffer } // head: the first SAMPLE_BYTES of them
  | { kind: "invalid"; reason: string; sample: string };

const NEWLINE = 0x0a;
export const SAMPLE_BYTES = 120;
/** A frame's body: its sequence number, a space, its JSON. */
const NUMBERED = /^(\d{1,15}) /;

/** Printable start of some bytes, for a message (`total`: how many there were, when more than `bytes`). */
export function sampleOf(bytes: Buffer, total = bytes.length): string {
  return JSON.stringify(bytes.subarray(0, SAMPLE_BYTES).toString("utf8")) + (total > SAMPLE_BYTES ? "…" : "");
}

const headOf = (bytes: Buffer) => Buffer.from(bytes.subarray(0, SAMPLE_BYTES));

type State =
  | { at: "hello" } // looking for the hello line with the secret
  | { at: "seek" } // between frames: looking for the secret
  | { at: "frame"; parts: Buffer[]; length: number } // after the token: up to the newline
  | { at: "oversized"; sample: string; length: number }; // a frame over the cap: dropped up to its newline

export class ChannelReader {
  private state: State = { at: "hello" };
  /** Bytes not yet judged: at most a marker's length. */
  private carry: Buffer = Buffer.alloc(0);
  private readonly hello: Buffer;
  private readonly token: Buffer;
  private helloSeen = false;
  /** The sequence number the next frame must carry. */
  private expected = 0;

  /** `secret`: what the parent handed this child (32 lowercase hex digits). */
  constructor(secret: string, private readonly maxFrameBytes = MAX_FRAME_BYTES) {
    this.hello = Buffer.from(`${HELLO_PREFIX}${secret}\n`);
    this.token = Buffer.from(secret);
  }

  /** True once the child's hello arrived (before that, nothing is trusted). */
  get opened(): boolean {
    return this.helloSeen;
  }

  /** Bytes the reader holds between pushes: the carry plus a frame in progress (never an oversized one). */
  get heldBytes(): number {
    return this.carry.length + (this.state.at === "frame" ? this.state.length : 0);
  }

  push(chunk: Buffer): ChannelItem[] {
    const out: ChannelItem[] = [];
    try {
      this.consume(chunk, out);
    } catch (error) {
      // Defensive: a bug here must cost this file its channel, never the parent process.
      out.push({ kind: "invalid", reason: `the channel reader failed: ${String(error)}`, sample: "" });
      this.state = { at: this.helloSeen ? "seek" : "hello" };
      this.carry = Buffer.alloc(0);
    }
    return out;
  }

  /** The channel closed: whatever is left is a truncated frame or foreign bytes. */
  end(): ChannelItem[] {
    const out: ChannelItem[] = [];
    const s = this.state;
    if (s.at === "frame") out.push({ kind: "invalid", reason: "a frame was cut off (the channel closed before its end)", sample: sampleOf(Buffer.concat(s.parts)) });
    else if (s.at === "oversized") out.push({ kind: "invalid", reason: `a frame of more than ${this.maxFrameBytes} bytes`, sample: s.sample });
    else if (this.carry.length) out.push({ kind: "foreign", bytes: this.carry.length, head: headOf(this.carry) });
    this.carry = Buffer.alloc(0);
    this.state = { at: this.helloSeen ? "seek" : "hello" };
    return out;
  }

  private consume(chunk: Buffer, out: ChannelItem[]): void {
    let data = chunk;
    while (data.length) {
      const s = this.state;
      if (s.at === "hello" || s.at === "seek") {
        const marker = s.at === "hello" ? this.hello : this.token;
        const buf = this.carry.length ? Buffer.concat([this.carry, data]) : data;
        this.carry = Buffer.alloc(0);
        const i = buf.indexOf(marker);
        if (i < 0) {
          // Keep the tail that could be the start of a marker split across chunks.
          const keep = Math.min(buf.length, marker.length - 1);
          if (buf.length > keep) out.push({ kind: "foreign", bytes: buf.length - keep, head: headOf(buf.subarray(0, buf.length - keep)) });
          this.carry = Buffer.from(buf.subarray(buf.length - keep));
          return;
        }
        if (i > 0) out.push({ kind: "foreign", bytes: i, head: headOf(buf.subarray(0, i)) });
        data = buf.subarray(i + marker.length);
        if (s.at === "hello") {
          this.helloSeen = true;
          this.state = { at: "seek" };
        } else this.state = { at: "frame", parts: [], length: 0 };
      } else if (s.at === "frame") {
        const j = data.indexOf(NEWLINE);
        if (j < 0) {
          if (s.length + data.length > this.maxFrameBytes) {
            const head = s.parts.length ? Buffer.concat([...s.parts, data]) : data;
            this.countOversized(head);
            this.state = { at: "oversized", sample: sampleOf(head), length: s.length + data.length };
          } else {
            s.parts.push(Buffer.from(data)); // copied: the caller may reuse its chunk
            s.length += data.length;
          }
          return;
        }
        const length = s.length + j;
        const body = s.parts.length ? Buffer.concat([...s.parts, data.subarray(0, j)], length) : data.subarray(0, j);
        if (length > this.maxFrameBytes) {
          this.countOversized(body);
          out.push({ kind: "invalid", reason: `a frame of ${length} bytes (the limit is ${this.maxFrameBytes})`, sample: sampleOf(body) });
        } else out.push(this.parse(body));
        this.state = { at: "seek" };
        data = data.subarray(j + 1);
      } else {
        const j = data.indexOf(NEWLINE);
        if (j < 0) {
          s.length += data.length;
          return;
        }
        out.push({ kind: "invalid", reason: `a frame of ${s.length + j} bytes (the limit is ${this.maxFrameBytes})`, sample: s.sample });
        this.state = { at: "seek" };
        data = data.subarray(j + 1);
      }
    }
  }

  /** A frame over the cap is refused, but when it carries the number due it still takes it (the child
   *  never writes one; if it did, its next frames would otherwise all look forged). */
  private countOversized(head: Buffer): void {
    const numbered = NUMBERED.exec(head.subarray(0, 17).toString("latin1"));
    if (numbered && Number(numbered[1]) === this.expected) this.expected++;
  }

  private parse(body: Buffer): ChannelItem {
    const text = body.toString("utf8");
    const numbered = NUMBERED.exec(text);
    if (!numbered) return { kind: "invalid", reason: "a frame without its sequence number", sample: sampleOf(body) };
    const at = Number(numbered[1]);
    if (at !== this.expected) return { kind: "invalid", reason: `a frame out of sequence (number ${at} where ${this.expected} was due: forged or replayed)`, sample: sampleOf(body) };
    this.expected++;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(numbered[0].length));
    } catch (error) {
      return { kind: "invalid", reason: `not JSON (${(error as Error).message})`, sample: sampleOf(body) };
    }
    const parsed = loadFrameSchema()(value);
    return parsed.ok ? { kind: "frame", frame: parsed.frame } : { kind: "invalid", reason: `not a harness event (${parsed.reason})`, sample: sampleOf(body) };
  }
}
