// Turning a request spec plus its input into the request an executor sees, calling the executor, and
// checking what comes back. Shared by the request actors (inside runs) and executeAgentRequest.
import { AgentError } from "./errors";
import { callExecutor } from "./model-calls";
import { describeIssues, isStringSchema, validate } from "./schema";
import { pickSettings, type RequestSpec } from "./request-spec";
import type {
  AgentDecisionOption,
  AgentDecisionRequest,
  AgentDecisionResult,
  AgentRequestExecutorResult,
  AgentRequestExecutors,
  AgentMessage,
  AgentRequest,
  AgentTextResult,
  AgentTextRequest,
  AgentUsage,
} from "./types";
import type { EventObject } from "./xstate";

/** A decision option's tool name is this prefix and the event type (`send_event_APPROVE`). */
export const DECISION_TOOL_PREFIX = "send_event_";

export interface BuildContext {
  invokeId: string;
  signal?: AbortSignal;
  /** Decisions: the event types the invoking state accepts right now. */
  acceptedEvents?: string[];
}

function render(value: unknown, input: unknown, what: string, name: string): unknown {
  if (typeof value !== "function") return value;
  try {
    return (value as (args: { input: unknown }) => unknown)({ input });
  } catch (error) {
    throw new AgentError("invalid-prompt", `Request "${name}": its ${what} function threw (${(error as Error)?.message ?? error}). Fix the ${what} of this request.`, { request: name, cause: error });
  }
}

/** The definition of an inline agent.decide, read from its invoke input. */
function inlineSpec(spec: RequestSpec, rawInput: unknown, invokeId: string): { spec: RequestSpec; input: unknown } {
  if (typeof rawInput !== "object" || rawInput === null || typeof (rawInput as { model?: unknown }).model !== "string") {
    throw new AgentError(
      "invalid-request-input",
      `agent.decide (invoke "${invokeId}") needs an input with a model key: invoke: { src: agent.decide, input: { model: "…", prompt: "…" } }.`,
      { request: invokeId },
    );
  }
  const def = rawInput as Record<string, unknown>;
  return {
    spec: {
      ...spec,
      inline: false,
      name: typeof def.name === "string" ? def.name : undefined,
      model: def.model as string,
      prompt: def.prompt,
      messages: def.messages,
      system: def.system,
      allowedEvents: Array.isArray(def.allowedEvents) ? (def.allowedEvents as string[]) : spec.allowedEvents,
      settings: { ...spec.settings, ...pickSettings(def) },
    },
    input: def.input,
  };
}

/** Builds the request an executor receives. Throws AgentError for invalid input or definitions. */
export function buildRequest(specIn: RequestSpec, rawInput: unknown, ctx: BuildContext): AgentRequest {
  let spec = specIn;
  let input = rawInput;
  if (spec.inline) ({ spec, input } = inlineSpec(spec, rawInput, ctx.invokeId));
  const name = spec.name ?? ctx.invokeId;
  const checked = validate(spec.inputSchema, input);
  if (!checked.ok) {
    throw new AgentError(
      "invalid-request-input",
      `Request "${name}" got an input that does not match its input schema (${describeIssues(checked.issues)}). Fix the invoke's input mapping.`,
      { request: name },
    );
  }
  input = checked.value;
  const prompt = render(spec.prompt, input, "prompt", name);
  const messages = render(spec.messages, input, "messages", name);
  const system = render(spec.system, input, "system", name);
  if (prompt !== undefined && typeof prompt !== "string") {
    throw new AgentError("invalid-prompt", `Request "${name}": prompt must be a string or a function returning one.`, { request: name });
  }
  if (messages !== undefined && !Array.isArray(messages)) {
    throw new AgentError("invalid-prompt", `Request "${name}": messages must be an array or a function returning one.`, { request: name });
  }
  if (system !== undefined && typeof system !== "string") {
    throw new AgentError("invalid-prompt", `Request "${name}": system must be a string or a function returning one.`, { request: name });
  }
  const base = {
    name,
    model: spec.model ?? "",
    ...(prompt !== undefined ? { prompt: prompt as string } : {}),
    ...(messages !== undefined ? { messages: messages as AgentMessage[] } : {}),
    ...(system !== undefined ? { system: system as string } : {}),
    input,
    tools: { ...(spec.tools ?? {}) },
    settings: { ...spec.settings },
    invokeId: ctx.invokeId,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  if (spec.kind === "text") {
    const request: AgentTextRequest = { ...base, kind: "text", outputSchema: spec.outputSchema, structured: !isStringSchema(spec.outputSchema) };
    return request;
  }
  const accepted = ctx.acceptedEvents ?? spec.allowedEvents ?? [];
  const allowed = spec.allowedEvents ? spec.allowedEvents.filter((type) => accepted.includes(type)) : accepted;
  if (allowed.length === 0) {
    throw new AgentError(
      "no-decision",
      `Decision "${name}": the invoking state accepts none of the events it may choose` +
        (spec.allowedEvents ? ` (${spec.allowedEvents.join(", ")})` : "") +
        `. Add an \`on\` handler for the decision's events to the state (or an ancestor).`,
      { request: name },
    );
  }
  const events: AgentDecisionOption[] = allowed.map((type) => ({
    type,
    toolName: `${DECISION_TOOL_PREFIX}${type}`,
    ...(spec.eventSchemas?.[type] ? { schema: spec.eventSchemas[type] } : {}),
  }));
  const request: AgentDecisionRequest = { ...base, kind: "decision", outputSchema: undefined, structured: false, events, attempts: [] };
  return request;
}

const RESULT_KEYS = new Set(["result", "messages", "usage", "raw"]);
const DECISION_KEYS = new Set(["event", "reason", "messages", "usage", "raw"]);

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value !== "object") return `${typeof value} ${JSON.stringify(value)?.slice(0, 60)}`;
  return `an object with keys ${Object.keys(value).map((k) => `"${k}"`).join(", ") || "(none)"}`;
}

/** Checks an executor's return value for a text request: exactly `{ result, messages?, usage?, raw? }`. */
export function checkTextResult(request: AgentTextRequest, value: unknown): AgentRequestExecutorResult {
  const isPlain = typeof value === "object" && value !== null && !Array.isArray(value);
  const keys = isPlain ? Object.keys(value as object) : [];
  if (!isPlain || !keys.includes("result") || keys.some((k) => !RESULT_KEYS.has(k))) {
    throw new AgentError(
      "invalid-executor-result",
      `The generateText executor returned ${describeValue(value)} for request "${request.name}"; ` +
        "an executor must return { result, messages?, usage?, raw? } with the output value under `result`.",
      { request: request.name },
    );
  }
  const result = value as AgentRequestExecutorResult;
  if (result.messages !== undefined && !Array.isArray(result.messages)) {
    throw new AgentError("invalid-executor-result", `The executor for request "${request.name}" returned \`messages\` that is not an array.`, { request: request.name });
  }
  return result;
}

/** Validates a text result against the request's output schema (a plain string by default). */
function checkOutput(request: AgentTextRequest, result: unknown): unknown {
  if (!request.outputSchema) {
    if (typeof result !== "string") {
      throw new AgentError(
        "invalid-request-output",
        `Request "${request.name}" declares no output schema, so its result must be a string; got ${describeValue(result)}. Return the text as \`result\`, or declare schemas.output.`,
        { request: request.name },
      );
    }
    return result;
  }
  const checked = validate(request.outputSchema, result);
  if (!checked.ok) {
    throw new AgentError(
      "invalid-request-output",
      `Request "${request.name}" got a result that does not match its output schema (${describeIssues(checked.issues)}).`,
      { request: request.name },
    );
  }
  return checked.value;
}

/** Checks a decide executor's `{ event }` against the options the request offered. */
function checkDecision(request: AgentDecisionRequest, value: unknown): AgentDecisionResult & { event: EventObject } {
  const isPlain = typeof value === "object" && value !== null && !Array.isArray(value);
  const keys = isPlain ? Object.keys(value as object) : [];
  const event = isPlain ? (value as { event?: unknown }).event : undefined;
  if (!isPlain || keys.some((k) => !DECISION_KEYS.has(k)) || typeof event !== "object" || event === null || typeof (event as EventObject).type !== "string") {
    throw new AgentError(
      "invalid-executor-result",
      `The decide executor returned ${describeValue(value)} for decision "${request.name}"; it must return { event: { type, ...payload }, reason?, usage?, messages?, raw? }.`,
      { request: request.name },
    );
  }
  const chosen = event as EventObject;
  const option = request.events.find((o) => o.type === chosen.type);
  if (!option) {
    throw Object.assign(new AgentError(
      "decision-not-accepted",
      `Decision "${request.name}" chose "${chosen.type}", which the state does not accept here; allowed: ${request.events.map((o) => o.type).join(", ")}.`,
      { request: request.name },
    ), { event: chosen });
  }
  if (option.schema) {
    const { type: _type, ...payload } = chosen as EventObject & Record<string, unknown>;
    const checked = validate(option.schema, payload);
    if (!checked.ok) {
      throw Object.assign(new AgentError(
        "invalid-decision",
        `Decision "${request.name}" chose "${chosen.type}" with a payload that does not match its event schema (${describeIssues(checked.issues)}).`,
        { request: request.name },
      ), { event: chosen });
    }
  }
  return value as AgentDecisionResult;
}

/** The conversation a request produced when the executor reports none: its messages plus the reply. */
function defaultMessages(request: AgentRequest, reply: unknown): AgentMessage[] {
  const messages: AgentMessage[] = [];
  if (request.system !== undefined) messages.push({ role: "system", content: request.system });
  if (request.messages) messages.push(...request.messages);
  if (request.prompt !== undefined) messages.push({ role: "user", content: request.prompt });
  messages.push({ role: "assistant", content: typeof reply === "string" ? reply : JSON.stringify(reply) ?? "" });
  return messages;
}

/**
 * A request actor's output. When the executor reported no conversation, `messages` is built on first
 * read (most machines never read it), then kept.
 */
function withMessages(result: unknown, messages: AgentMessage[] | undefined, request: AgentRequest): AgentTextResult {
  if (messages) return { result, messages };
  const output = { result } as AgentTextResult;
  Object.defineProperty(output, "messages", {
    enumerable: true,
    configurable: true,
    get() {
      const built = defaultMessages(request, result);
      Object.defineProperty(output, "messages", { value: built, enumerable: true, writable: true, configurable: true });
      return built;
    },
    set(value: AgentMessage[]) {
      Object.defineProperty(output, "messages", { value, enumerable: true, writable: true, configurable: true });
    },
  });
  return output;
}

export interface Performed {
  output: AgentTextResult;
  usage?: AgentUsage;
  event?: EventObject;
}

/** Calls the right executor for a built request (through the harness's model-call interceptor, when it
 *  runs under the harness) and checks the answer. Throws executor errors as they are. */
export async function performRequest(request: AgentRequest, executors: AgentRequestExecutors, callSite?: Error): Promise<Performed> {
  if (request.kind === "text") {
    if (typeof executors.generateText !== "function") {
      throw new AgentError(
        "missing-executor",
        `Request "${request.name}" (model "${request.model}") needs a generateText executor; pass executors: { generateText } (or createAiSdkExecutors({ models })).`,
        { request: request.name },
      );
    }
    const answer = checkTextResult(request, await callExecutor(request, executors, "generateText", callSite));
    const result = checkOutput(request, answer.result);
    return {
      output: withMessages(result, answer.messages, request),
      ...(answer.usage ? { usage: answer.usage } : {}),
    };
  }
  if (typeof executors.decide !== "function") {
    throw new AgentError(
      "missing-executor",
      `Decision "${request.name}" (model "${request.model}") needs a decide executor; pass executors: { decide } (or createAiSdkExecutors({ models })).`,
      { request: request.name },
    );
  }
  const answer = checkDecision(request, await callExecutor(request, executors, "decide", callSite));
  return {
    output: withMessages(answer.event, answer.messages, request),
    ...(answer.usage ? { usage: answer.usage } : {}),
    event: answer.event,
  };
}
