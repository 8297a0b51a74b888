// Anthropic's Messages API on the wire (what @anthropic-ai/sdk sends and reads): POST /v1/messages answered as a
// `message` object (text and `tool_use` content blocks, usage with cache reads), or with `stream: true` as the SSE
// event stream (message_start, content_block_start / _delta (text_delta, input_json_delta) / _stop, ping,
// message_delta with the stop reason and output tokens, message_stop). Errors are
// `{ type: "error", error: { type, message } }` (529 is overloaded_error). Point the SDK here with
// ANTHROPIC_BASE_URL=<server.url>.
import { splitText, startVendorServer, type Dialect, type ErrorReply, type ModelReply, type VendorServer } from "./server";

export type { VendorServer } from "./server";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
  413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error",
};

const toolId = (i: number, id?: string) => id ?? `toolu_test_${i}`;
const stopReason = (reply: ModelReply) => reply.finishReason ?? (reply.toolCalls?.length ? "tool_use" : "end_turn");
const toolInput = (args: Record<string, unknown> | string) => (typeof args === "string" ? JSON.parse(args) : args);

function usage(reply: ModelReply) {
  const u = reply.usage ?? {};
  return { input_tokens: u.prompt ?? 10, output_tokens: u.completion ?? 5, cache_read_input_tokens: u.cached ?? 0, cache_creation_input_tokens: 0 };
}

const anthropicDialect: Dialect = {
  route(method, path, _query, body) {
    if (method !== "POST" || path !== "/v1/messages") return undefined;
    return { model: body?.model, stream: body?.stream === true };
  },
  json(reply, request) {
    const content = [
      ...(reply.text ? [{ type: "text", text: reply.text }] : []),
      ...(reply.toolCalls ?? []).map((c, i) => ({ type: "tool_use", id: toolId(i, c.id), name: c.name, input: toolInput(c.arguments) })),
    ];
    return { id: "msg_test", type: "message", role: "assistant", model: reply.model ?? request.model, content, stop_reason: stopReason(reply), stop_sequence: null, usage: usage(reply) };
  },
  events(reply, request) {
    const u = usage(reply);
    const out: Array<{ event: string; data: unknown }> = [{
      event: "message_start",
      data: { type: "message_start", message: { id: "msg_test", type: "message", role: "assistant", model: reply.model ?? request.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...u, output_tokens: 1 } } },
    }];
    let index = 0;
    if (reply.text) {
      out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      out.push({ event: "ping", data: { type: "ping" } });
      for (const piece of splitText(reply.text, reply.chunks)) out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } } });
      out.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
      index++;
    }
    (reply.toolCalls ?? []).forEach((c, i) => {
      const json = typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments);
      const half = Math.ceil(json.length / 2);
      out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: toolId(i, c.id), name: c.name, input: {} } } });
      for (const part of [json.slice(0, half), json.slice(half)]) out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } } });
      out.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
      index++;
    });
    out.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: u.output_tokens } } });
    out.push({ event: "message_stop", data: { type: "message_stop" } });
    return out;
  },
  errorBody(error: ErrorReply) {
    const type = error.code ?? ERROR_TYPES[error.status] ?? (error.status >= 500 ? "api_error" : "invalid_request_error");
    return { type: "error", error: { type, message: error.message ?? `test server error ${error.status}` } };
  },
};

/** An Anthropic-speaking server; hand its `url` to ANTHROPIC_BASE_URL. */
export function startAnthropicServer(): Promise<VendorServer> {
  return startVendorServer(anthropicDialect);
}
