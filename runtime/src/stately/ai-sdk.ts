// @statelyai/agent/ai-sdk — executors backed by AI SDK language models (ai@7).
//   plain text   → generateText, the model's text as is
//   structured   → JSON output of the shape { "result": <declared output> }, `result` read back
//   decision     → one tool per allowed event, named send_event_<TYPE>; the tool call's input is the payload
import { generateText, jsonSchema, Output, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { z } from "zod";
import { AgentError } from "./errors";
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
  models: Record<string, LanguageModel>;
}

export const DECISION_TOOL_PREFIX = "send_event_";

function modelFor(models: Record<string, LanguageModel>, request: AgentRequest): LanguageModel {
  const model = models[request.model];
  if (!model) {
    throw new AgentError(
      "unknown-model",
      `createAiSdkExecutors has no model for key "${request.model}" (request "${request.name}"); add it: createAiSdkExecutors({ models: { ${request.model}: ... } }).`,
      { request: request.name },
    );
  }
  return model;
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

async function generate(models: Record<string, LanguageModel>, request: AgentTextRequest): Promise<AgentRequestExecutorResult> {
  const model = modelFor(models, request);
  const tools = Object.fromEntries(
    Object.entries(request.tools).map(([name, t]) => [name, tool({ ...(t.description ? { description: t.description } : {}), inputSchema: sdkSchema(t.inputSchema) as never })]),
  ) as ToolSet;
  const hasTools = Object.keys(tools).length > 0;
  if (!request.structured) {
    const response = await generateText({ model, ...common(request), ...(hasTools ? { tools } : {}) } as never);
    return { result: response.text, messages: conversation(request, response.response.messages), usage: usageOf(response.totalUsage), raw: response };
  }
  const schema = z.object({ result: sdkSchema(request.outputSchema) as z.ZodType });
  let response;
  try {
    response = await generateText({ model, ...common(request), ...(hasTools ? { tools } : {}), output: Output.object({ schema }) } as never);
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

async function decide(models: Record<string, LanguageModel>, request: AgentDecisionRequest): Promise<AgentDecisionResult> {
  const model = modelFor(models, request);
  const tools: ToolSet = {};
  for (const option of request.allowedEvents) {
    tools[`${DECISION_TOOL_PREFIX}${option.type}`] = tool({
      description: option.description ?? `Choose the event ${option.type}.`,
      inputSchema: sdkSchema(option.schema) as never,
    });
  }
  const response = await generateText({ model, ...common(request), tools, toolChoice: "required" } as never);
  const call = response.toolCalls.find((c: { toolName: string }) => c.toolName.startsWith(DECISION_TOOL_PREFIX));
  if (!call) {
    throw new AgentError(
      "no-decision",
      `Model "${request.model}" made no ${DECISION_TOOL_PREFIX}<TYPE> tool call for decision "${request.name}"; allowed: ${request.allowedEvents.map((o) => o.type).join(", ")}.`,
      { request: request.name },
    );
  }
  const type = call.toolName.slice(DECISION_TOOL_PREFIX.length);
  const payload = typeof call.input === "object" && call.input !== null ? (call.input as Record<string, unknown>) : {};
  return { event: { ...payload, type }, messages: conversation(request, response.response.messages), usage: usageOf(response.totalUsage), raw: response };
}

/** Executors that answer every request with the AI SDK model registered under its model key. */
export function createAiSdkExecutors(options: AiSdkExecutorOptions): Required<AgentRequestExecutors> {
  if (!options || typeof options !== "object" || typeof options.models !== "object" || options.models === null) {
    throw new AgentError("invalid-options", "createAiSdkExecutors needs { models: { <model key>: languageModel } }.");
  }
  const models = options.models;
  return {
    generateText: (request) => generate(models, request),
    decide: (request) => decide(models, request),
  };
}
