// OpenAI's Chat Completions on the wire (what the `openai` SDK sends and reads; OpenRouter speaks the same):
// POST /v1/chat/completions answered as a `chat.completion` object, or with `stream: true` as SSE
// `chat.completion.chunk` events (text deltas, tool-call deltas by index, the finish reason, the usage chunk when
// `stream_options.include_usage`, then `[DONE]`). Errors are `{ error: { message, type, code, param } }`.
// Point the SDK here with OPENAI_BASE_URL=<server.url> (OpenRouterProvider: OPENROUTER_BASE_URL).
import { splitText, startVendorServer, toolArguments, type Dialect, type ErrorReply, type ModelReply, type RecordedRequest, type VendorServer } from "./server";

export type { VendorServer } from "./server";

const CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z: replies are the same bytes every run

function usage(reply: ModelReply) {
  const u = reply.usage ?? {};
  const prompt = u.prompt ?? 10;
  const completion = u.completion ?? 5;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: u.cached ?? 0 } };
}

const toolCallId = (i: number, id?: string) => id ?? `call_test_${i}`;
const finish = (reply: ModelReply) => reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");

const DEFAULT_ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
};

const openaiDialect: Dialect = {
  route(method, path, _query, body) {
    if (method !== "POST" || !/^(\/v1)?\/chat\/completions$/.test(path)) return undefined;
    return { model: body?.model, stream: body?.stream === true };
  },
  json(reply, request: RecordedRequest) {
    const tool_calls = reply.toolCalls?.map((c, i) => ({ id: toolCallId(i, c.id), type: "function", function: { name: c.name, arguments: toolArguments(c) } }));
    return {
      id: "chatcmpl-test", object: "chat.completion", created: CREATED, model: reply.model ?? request.model,
      choices: [{ index: 0, message: { role: "assistant", content: reply.text ?? null, refusal: null, ...(tool_calls ? { tool_calls } : {}) }, logprobs: null, finish_reason: finish(reply) }],
      usage: usage(reply),
    };
  },
  events(reply, request) {
    const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: CREATED, model: reply.model ?? request.model };
    const chunk = (delta: object, finish_reason: string | null = null) => ({ data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] } });
    const out: Array<{ data: unknown }> = [chunk({ role: "assistant", content: "" })];
    if (reply.text) for (const piece of splitText(reply.text, reply.chunks)) out.push(chunk({ content: piece }));
    reply.toolCalls?.forEach((c, i) => {
      const args = toolArguments(c);
      const half = Math.ceil(args.length / 2);
      out.push(chunk({ tool_calls: [{ index: i, id: toolCallId(i, c.id), type: "function", function: { name: c.name, arguments: args.slice(0, half) } }] }));
      out.push(chunk({ tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] }));
    });
    out.push(chunk({}, finish(reply)));
    if (request.body?.stream_options?.include_usage) out.push({ data: { ...base, choices: [], usage: usage(reply) } });
    out.push({ data: "[DONE]" });
    return out;
  },
  errorBody(error: ErrorReply) {
    const d = DEFAULT_ERRORS[error.status] ?? { type: error.status >= 500 ? "server_error" : "invalid_request_error", code: null };
    return { error: { message: error.message ?? `test server error ${error.status}`, type: d.type, code: error.code ?? d.code, param: null } };
  },
};

/** An OpenAI-speaking server; its `url` ends in /v1, as OPENAI_BASE_URL does. */
export function startOpenAIServer(): Promise<VendorServer> {
  return startVendorServer(openaiDialect, "/v1");
}
