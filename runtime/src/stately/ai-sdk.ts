// @statelyai/agent/ai-sdk — executors backed by AI SDK language models (ai@7).
//   plain text   → generateText, the model's text as is
//   structured   → JSON output of the shape { "result": <declared output> }, `result` read back
//   decision     → one tool per allowed event, named send_event_<TYPE>; the tool call's input is the payload
import { generateText, jsonSchema, Output, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { z } from "zod";
import { AgentError } from "./errors";
import { DECISION_TOOL_PREFIX } from "./execute";
import { nameModels } from "./model-calls";
import { isZodSchema, toJsonSchema } from "./schema";
import type {
  AgentDecisionRequest,
  AgentDecisionResult,
  AgentRequestExecutorResult,
  AgentRequestExecutors,
  AgentMessage,
  AgentRequest,
  AgentTextRequest,
  AgentUsage,
} from "./types";
import type { StandardSchemaV1 } from "./xstate";

export interface AiSdkExecutorOptions {
  /** Language models by model key (the `model` of each request). */
  models?: Record<string, LanguageModel>;
  /** The model for a key `models` does not list (string model refs resolved at run time). */
  resolveModel?: (model: string, request: AgentRequest) => LanguageModel | undefined;
  /** Extra AI SDK call settings per request (providerOptions, headers, sampling), applied to every call. */
  settings?: (request: AgentRequest) => Record<string, unknown> | undefined;
}

/** What createAiSdkExecutors returns: an executor for each request kind. */
export type AiSdkExecutors = Required<AgentRequestExecutors>;

export { DECISION_TOOL_PREFIX };

/** Types a models map (model key → AI SDK model) once, for setupAgent({ models }) and createAiSdkExecutors({ models }). */
export function defineModels<const TModels extends Record<string, LanguageModel>>(models: TModels): TModels {
  return models;
}

interface Resolved {
  models: Record<string, LanguageModel>;
  resolveModel?: AiSdkExecutorOptions["resolveModel"];
  settings?: AiSdkExecutorOptions["settings"];
}

function modelFor(options: Resolved, request: AgentRequest): LanguageModel {
  const model = options.models[request.model] ?? options.resolveModel?.(request.model, request);
  if (!model) {
    throw new AgentError(
      "unknown-model",
      `createAiSdkExecutors has no model for key "${request.model}" (request "${request.name}"); add it: createAiSdkExecutors({ models: { ${request.model}: ... } }).`,
      { request: request.name },
    );
  }
  return model;
}

/** The caller's extra call settings for a request. */
function extraSettings(options: Resolved, request: AgentRequest): Record<string, unknown> {
  const extra = options.settings?.(request);
  if (extra === undefined) return {};
  if (typeof extra !== "object" || extra === null) {
    throw new AgentError("invalid-options", `createAiSdkExecutors: settings(request) must return an object of AI SDK call settings (request "${request.name}").`, { request: request.name });
  }
  return extra;
}

/** The AI SDK schema for a Standard Schema: zod as is, others through their JSON Schema when known. */
function sdkSchema(schema: StandardSchemaV1 | undefined): z.ZodType | ReturnType<typeof jsonSchema> {
  if (!schema) return z.object({}).passthrough();
  if (isZodSchema(schema)) return schema;
  return jsonSchema(toJsonSchema(schema) ?? { type: "object" });
}

function promptOf(request: AgentRequest): { prompt: string } | { messages: ModelMessage[] } {
  if (request.messages && request.messages.length) {
    const messages = [...request.messages] as unknown as ModelMessage[];
    if (request.prompt !== undefined) messages.push({ role: "user", content: request.prompt });
    return { messages };
  }
  return { prompt: request.prompt ?? "" };
}

function usageOf(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): AgentUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    totalTokens: usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
  };
}

function common(request: AgentRequest) {
  return {
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...promptOf(request),
    ...request.settings,
    ...(request.signal ? { abortSignal: request.signal } : {}),
  };
}

function conversation(request: AgentRequest, responseMessages: unknown[]): AgentMessage[] {
  const messages: AgentMessage[] = [];
  if (request.system !== undefined) messages.push({ role: "system", content: request.system });
  if (request.messages) messages.push(...request.messages);
  if (request.prompt !== undefined) messages.push({ role: "user", content: request.prompt });
  return [...messages, ...(responseMessages as AgentMessage[])];
}

async function generate(options: Resolved, request: AgentTextRequest): Promise<AgentRequestExecutorResult> {
  const model = modelFor(options, request);
  const extra = extraSettings(options, request);
  const tools = Object.fromEntries(
    Object.entries(request.tools).map(([name, t]) => [name, tool({ ...(t.description ? { description: t.description } : {}), inputSchema: sdkSchema(t.inputSchema) as never })]),
  ) as ToolSet;
  const hasTools = Object.keys(tools).length > 0;
  if (!request.structured) {
    const response = await generateText({ model, ...common(request), ...extra, ...(hasTools ? { tools } : {}) } as never);
    return { result: response.text, messages: conversation(request, response.response.messages), usage: usageOf(response.totalUsage), raw: response };
  }
  const schema = z.object({ result: sdkSchema(request.outputSchema) as z.ZodType });
  let response;
  try {
    response = await generateText({ model, ...common(request), ...extra, ...(hasTools ? { tools } : {}), output: Output.object({ schema }) } as never);
  } catch (error) {
    if ((error as Error)?.name === "AI_NoObjectGeneratedError") {
      throw new AgentError(
        "model-output-not-json",
        `Model "${request.model}" did not answer request "${request.name}" with JSON of the shape { "result": ... } matching its output schema (${(error as Error).message}).`,
        { request: request.name, cause: error },
      );
    }
    throw error;
  }
  const output = (response as unknown as { output: { result: unknown } }).output;
  return { result: output.result, messages: conversation(request, response.response.messages), usage: usageOf(response.totalUsage), raw: response };
}

async function decide(options: Resolved, request: AgentDecisionRequest): Promise<AgentDecisionResult> {
  const model = modelFor(options, request);
  const extra = extraSettings(options, request);
  const tools: ToolSet = {};
  for (const option of request.events) {
    tools[option.toolName] = tool({
      description: option.description ?? `Choose the event ${option.type}.`,
      inputSchema: sdkSchema(option.schema) as never,
    });
  }
  const response = await generateText({ model, ...common(request), ...extra, tools, toolChoice: "required" } as never);
  const call = response.toolCalls.find((c: { toolName: string }) => c.toolName.startsWith(DECISION_TOOL_PREFIX));
  if (!call) {
    throw new AgentError(
      "no-decision",
      `Model "${request.model}" made no ${DECISION_TOOL_PREFIX}<TYPE> tool call for decision "${request.name}"; allowed: ${request.events.map((o) => o.type).join(", ")}.`,
      { request: request.name },
    );
  }
  const type = call.toolName.slice(DECISION_TOOL_PREFIX.length);
  const payload = typeof call.input === "object" && call.input !== null ? (call.input as Record<string, unknown>) : {};
  return { event: { ...payload, type }, messages: conversation(request, response.response.messages), usage: usageOf(response.totalUsage), raw: response };
}

/** Executors that answer every request with the AI SDK model registered under (or resolved for) its model key. */
export function createAiSdkExecutors(options: AiSdkExecutorOptions): AiSdkExecutors {
  const models = options?.models;
  if (!options || typeof options !== "object" || (models !== undefined && (typeof models !== "object" || models === null)) || (models === undefined && typeof options.resolveModel !== "function")) {
    throw new AgentError("invalid-options", "createAiSdkExecutors needs { models: { <model key>: languageModel } } (or resolveModel(key, request)).");
  }
  for (const name of ["resolveModel", "settings"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new AgentError("invalid-options", `createAiSdkExecutors: ${name} must be a function of the request.`);
  }
  const resolved: Resolved = { models: models ?? {}, ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}), ...(options.settings ? { settings: options.settings } : {}) };
  const executors: AiSdkExecutors = {
    generateText: (request) => generate(resolved, request),
    decide: (request) => decide(resolved, request),
  };
  // Recordings name the model a call went to: the AI SDK model's provider/modelId (a string model id as is).
  const modelName = (request: AgentRequest): string | undefined => {
    const model = resolved.models[request.model] ?? resolved.resolveModel?.(request.model, request);
    if (typeof model === "string") return model;
    const { provider, modelId } = (model ?? {}) as { provider?: unknown; modelId?: unknown };
    return typeof modelId === "string" ? (typeof provider === "string" ? `${provider}/${modelId}` : modelId) : undefined;
  };
  nameModels(executors.generateText, modelName);
  nameModels(executors.decide, modelName);
  return executors;
}
