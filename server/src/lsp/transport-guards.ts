// Two rules of the protocol the library leaves to us:
// - after `shutdown`, every request is answered with InvalidRequest (notifications such as `exit` still
//   pass): a message strategy sees each message before it is dispatched and sends requests that arrive
//   after `shutdown` to one handler that refuses them;
// - a framing error on stdin ends the process. vscode-jsonrpc's reader reports a broken header and then
//   waits forever for a frame it can no longer find, which leaves the server alive and mute; exiting
//   lets the client restart it. A small watcher reads the same bytes (a second 'data' listener) and
//   checks only the framing: headers end within 8 KB, carry a numeric Content-Length no larger than a
//   message can be, and every header line is `Name: value`; and a message that has started arrives in
//   full: when its bytes stop coming (a Content-Length larger than what follows) the reader would wait
//   forever, so after a while without data that is a framing error too. A body that is not JSON keeps
//   the framing intact and is left to the library.
import { ErrorCodes, Message, ResponseError, type Connection, type MessageStrategy } from "vscode-languageserver/node";

const REFUSED_METHOD = "agentLens/$refusedAfterShutdown";

export class ShutdownGate implements MessageStrategy {
  private shutdownReceived = false;

  handleMessage(message: Message, next: (message: Message) => void): void {
    if (Message.isRequest(message)) {
      if (this.shutdownReceived) return next({ ...message, method: REFUSED_METHOD, params: { method: message.method } } as Message);
      if (message.method === "shutdown") this.shutdownReceived = true;
    }
    next(message);
  }

  /** Registers the handler that refuses what arrives after shutdown. */
  install(connection: Connection): void {
    connection.onRequest(REFUSED_METHOD, (params: { method?: string }) =>
      new ResponseError(ErrorCodes.InvalidRequest, `${params?.method ?? "request"}: the server is shutting down (shutdown was received)`));
  }
}

const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");
/** The largest message body taken: far above any real one (a 2 MB file sent whole, JSON-escaped), far
 *  below what would exhaust memory or never arrive. */
const MAX_BODY_BYTES = 256 * 1024 * 1024;
/** How long a started message may go without new bytes (a client writes a message in one go). */
const BODY_TIMEOUT_MS = 30_000;

export interface FramingLimits {
  maxBodyBytes?: number;
  /** Without data for this long inside a message (its header or body): a framing error. */
  stallTimeoutMs?: number;
}

/** Follows the LSP base protocol's framing (headers, then Content-Length bytes of body) of a byte stream
 *  and reports the first framing error. */
export class FramingWatch {
  private header = Buffer.alloc(0);
  private bodyLeft = 0;
  private bodyLength = 0;
  private failed = false;
  private stall: ReturnType<typeof setTimeout> | undefined;
  private readonly maxBodyBytes: number;
  private readonly stallTimeoutMs: number;

  constructor(
    private readonly onError: (reason: string) => void,
    limits: FramingLimits = {},
  ) {
    this.maxBodyBytes = limits.maxBodyBytes ?? MAX_BODY_BYTES;
    this.stallTimeoutMs = limits.stallTimeoutMs ?? BODY_TIMEOUT_MS;
  }

  push(chunk: Buffer): void {
    this.read(chunk);
    this.watchStall();
  }

  /** Stop watching (the stream ended). */
  dispose(): void {
    if (this.stall) clearTimeout(this.stall);
    this.stall = undefined;
  }

  /** A timer while a message is incomplete, restarted by every chunk; none between messages. */
  private watchStall(): void {
    if (this.stall) clearTimeout(this.stall);
    this.stall = undefined;
    if (this.failed || (this.bodyLeft === 0 && this.header.length === 0)) return;
    this.stall = setTimeout(() => {
      const what = this.bodyLeft > 0 ? `a message body stopped arriving: ${this.bodyLength - this.bodyLeft} of its ${this.bodyLength} bytes (Content-Length) came` : "a message header stopped arriving before its end";
      this.fail(`${what}, then nothing for ${this.stallTimeoutMs / 1000} s`);
    }, this.stallTimeoutMs);
    this.stall.unref?.();
  }

  private read(chunk: Buffer): void {
    let data = chunk;
    while (data.length && !this.failed) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, data.length);
        this.bodyLeft -= take;
        data = data.subarray(take);
        continue;
      }
      const buf = this.header.length ? Buffer.concat([this.header, data]) : data;
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) return this.fail(`no end of header within ${MAX_HEADER_BYTES} bytes`);
        this.header = Buffer.from(buf);
        return;
      }
      this.header = Buffer.alloc(0);
      const length = this.contentLength(buf.subarray(0, end).toString("ascii"));
      if (length === undefined) return;
      if (length > this.maxBodyBytes) return this.fail(`Content-Length ${length} is larger than a message may be (${this.maxBodyBytes} bytes)`);
      this.bodyLeft = length;
      this.bodyLength = length;
      data = buf.subarray(end + HEADER_END.length);
    }
  }

  private contentLength(text: string): number | undefined {
    let length: number | undefined;
    for (const line of text.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) {
        this.fail(`a header line without "Name: value": ${JSON.stringify(line.slice(0, 80))}`);
        return undefined;
      }
      if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
      const value = line.slice(colon + 1).trim();
      if (!/^\d+$/.test(value)) {
        this.fail(`Content-Length is not a number: ${JSON.stringify(value.slice(0, 40))}`);
        return undefined;
      }
      length = Number(value);
    }
    if (length === undefined) this.fail("a header without Content-Length");
    return length;
  }

  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    this.dispose();
    this.onError(reason);
  }
}
