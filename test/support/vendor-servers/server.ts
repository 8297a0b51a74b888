// A model vendor's HTTP API on 127.0.0.1 (port 0) for tests: plain node:http, one dialect per vendor file
// (openai.ts, anthropic.ts, gemini.ts) rendering the same scripted replies in that vendor's wire format, as
// JSON or as an SSE stream. Each request takes the next scripted entry (a reply, an HTTP error, a hang, or a
// function of the request); a request with nothing scripted gets a 400 naming it, so an unexpected call fails
// loudly and is not retried. Every request is recorded (method, path, query, headers, parsed JSON body) and
// every TCP connection counted, so a test can prove what was sent, and that nothing was.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ToolCallReply {
  id?: string;
  name: string;
  /** An object, or raw text (to send malformed arguments). */
  arguments: Record<string, unknown> | string;
  /** Gemini only: the part's `thoughtSignature`. */
  signature?: string;
}

/** A model's answer, vendor-neutral. */
export interface ModelReply {
  text?: string;
  toolCalls?: ToolCallReply[];
  usage?: { prompt?: number; completion?: number; cached?: number };
  /** The model the vendor says answered (default: the one asked for). */
  model?: string;
  /** How a streamed reply's text is cut into events (default: about three pieces). */
  chunks?: string[];
  finishReason?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** A stream sends this many events, then stalls with the connection open (the client's timeout ends it). */
  stallAfterEvents?: number;
}

/** An HTTP error in the vendor's error format (`body` replaces the default one). */
export interface ErrorReply {
  status: number;
  message?: string;
  /** The vendor's error code / type / status string. */
  code?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Accepts the request and never answers (the client's timeout or abort ends it). */
export interface HangReply {
  hang: true;
}

export type Scripted = ModelReply | ErrorReply | HangReply | ((request: RecordedRequest) => ModelReply | ErrorReply | HangReply);

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: any;
  /** The model the request named (from the body or the path). */
  model: string | undefined;
  stream: boolean;
}

/** How one vendor's API looks on the wire. */
export interface Dialect {
  /** The request's model and whether it asked for a stream, or undefined for a path this API does not have. */
  route(method: string, path: string, query: Record<string, string>, body: any): { model: string | undefined; stream: boolean } | undefined;
  json(reply: ModelReply, request: RecordedRequest): unknown;
  /** SSE events, each `{ event?, data }` (data as an object or a literal string such as "[DONE]"). */
  events(reply: ModelReply, request: RecordedRequest): Array<{ event?: string; data: unknown }>;
  errorBody(error: ErrorReply): unknown;
}

export interface VendorServer {
  /** The base URL to hand the SDK (its environment variable or option). */
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Queues replies, answered in order. */
  script(...replies: Scripted[]): VendorServer;
  /** Scripted entries not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

export function splitText(text: string, chunks?: string[]): string[] {
  if (chunks) return chunks;
  if (text.length < 3) return [text];
  const size = Math.ceil(text.length / 3);
  return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)].filter(Boolean);
}

export const toolArguments = (c: ToolCallReply): string => (typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments));

const isError = (r: ModelReply | ErrorReply | HangReply): r is ErrorReply => "status" in r;
const isHang = (r: ModelReply | ErrorReply | HangReply): r is HangReply => "hang" in r;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts a server speaking `dialect`; `basePath` is appended to the URL handed out (OpenAI's "/v1"). */
export async function startVendorServer(dialect: Dialect, basePath = ""): Promise<VendorServer> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const query = Object.fromEntries(url.searchParams);
      const route = dialect.route(req.method ?? "GET", url.pathname, query, body);
      const request: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, query, headers: req.headers, body, model: route?.model, stream: route?.stream ?? false };
      requests.push(request);
      if (!route) return send(res, 404, dialect.errorBody({ status: 404, message: `vendor test server: no route ${req.method} ${url.pathname}` }));
      const entry = queue.shift();
      if (entry === undefined) {
        return send(res, 400, dialect.errorBody({ status: 400, message: `vendor test server: no scripted reply left for request #${requests.length} (${url.pathname})` }));
      }
      const reply = typeof entry === "function" ? entry(request) : entry;
      if (isHang(reply)) return; // the client gives up; close() destroys the socket
      if (isError(reply)) return send(res, reply.status, reply.body ?? dialect.errorBody(reply), reply.headers);
      const answer = () => {
        if (res.destroyed) return;
        if (!route.stream) return send(res, 200, dialect.json(reply, request));
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        const events = dialect.events(reply, request);
        for (const e of events.slice(0, reply.stallAfterEvents ?? events.length)) {
          res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`);
        }
        if (reply.stallAfterEvents === undefined) res.end();
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  server.on("connection", (socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const api: VendorServer = {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    get connections() {
      return connections;
    },
    script(...replies) {
      queue.push(...replies);
      return api;
    },
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return api;
}
