// The Gemini API's generateContent on the wire (what @google/genai sends and reads): POST
// /v1beta/models/<model>:generateContent answered with a GenerateContentResponse (text and functionCall parts,
// usageMetadata, modelVersion), and POST …:streamGenerateContent?alt=sse as SSE `data:` chunks of the same shape,
// the last with the finish reason and usage. Errors are `{ error: { code, message, status, details } }`; a 429
// can carry a RetryInfo `retryDelay`. Point the SDK here with GOOGLE_GEMINI_BASE_URL=<server.url>.
import { splitText, startVendorServer, type Dialect, type ErrorReply, type ModelReply, type VendorServer } from "./server";

export type { ErrorReply, VendorServer } from "./server";

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
};

const toolArgs = (args: Record<string, unknown> | string) => (typeof args === "string" ? JSON.parse(args) : args);

function usageMetadata(reply: ModelReply) {
  const u = reply.usage ?? {};
  const prompt = u.prompt ?? 10;
  const completion = u.completion ?? 5;
  return { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion, ...(u.cached ? { cachedContentTokenCount: u.cached } : {}) };
}

function response(parts: object[], reply: ModelReply, model: string | undefined, last: boolean) {
  return {
    candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: reply.finishReason ?? "STOP" } : {}) }],
    ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
    modelVersion: reply.model ?? model, responseId: "resp-test",
  };
}

const callParts = (reply: ModelReply) =>
  (reply.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: toolArgs(c.arguments), ...(c.id ? { id: c.id } : {}) }, ...(c.signature ? { thoughtSignature: c.signature } : {}) }));

const geminiDialect: Dialect = {
  route(method, path, query) {
    const m = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent)$/.exec(path);
    if (method !== "POST" || !m) return undefined;
    return { model: decodeURIComponent(m[1]!), stream: m[2] === "streamGenerateContent" && query.alt === "sse" };
  },
  json(reply, request) {
    return response([...(reply.text ? [{ text: reply.text }] : []), ...callParts(reply)], reply, request.model, true);
  },
  events(reply, request) {
    const pieces = reply.text ? splitText(reply.text, reply.chunks) : [];
    const out = pieces.map((text, i) => ({ data: response([{ text }], reply, request.model, i === pieces.length - 1 && !reply.toolCalls?.length) }));
    if (reply.toolCalls?.length || !pieces.length) out.push({ data: response(callParts(reply), reply, request.model, true) });
    return out;
  },
  errorBody(error: ErrorReply) {
    return { error: { code: error.status, message: error.message ?? `test server error ${error.status}`, status: error.code ?? STATUS[error.status] ?? "UNKNOWN" } };
  },
};

/** A Gemini-speaking server; hand its `url` to GOOGLE_GEMINI_BASE_URL. */
export function startGeminiServer(): Promise<VendorServer> {
  return startVendorServer(geminiDialect);
}

/** A 429 with Google's RetryInfo, which is how Gemini says when to come back. */
export function geminiRateLimit(retryMs: number, message = "Resource has been exhausted (e.g. check quota)."): ErrorReply {
  return {
    status: 429,
    body: { error: { code: 429, message, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryMs / 1000}s` }] } },
  };
}
