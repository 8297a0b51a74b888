// Every executor call goes through here (performRequest): under the harness it is offered to the model-call
// interceptor (../shared/model-calls.ts), which records it or answers it from the file's recording; outside,
// the executor is called as is. What a call is, for stately: the request name as its key, the model (the AI
// SDK model's provider/modelId when createAiSdkExecutors answers it, else the model key), the request as the
// executor received it (its schemas as JSON Schema), and the executor's answer without `raw`.
import { isReplayError, isUnrecorded, modelCallInterceptor, plainError, type KeptError, type ModelCallInterceptor, type ModelUsage } from "../shared/model-calls";
import { plainJson } from "../shared/recording/canonical";
import { AgentError, markFatal, type AgentErrorCode } from "./errors";
import { toJsonSchema } from "./schema";
import type { AgentDecisionResult, AgentRequest, AgentRequestExecutorResult, AgentRequestExecutors } from "./types";
import type { StandardSchemaV1 } from "./xstate";

type ExecutorName = "generateText" | "decide";
type Answer = AgentRequestExecutorResult | AgentDecisionResult;

// Executors that know their model's name (createAiSdkExecutors): looked up by the executor function, which
// survives a spread of the executors object.
const modelNames = new WeakMap<object, (request: AgentRequest) => string | undefined>();

export function nameModels(executor: object, name: (request: AgentRequest) => string | undefined): void {
  modelNames.set(executor, name);
}

function modelOf(executor: object, request: AgentRequest): string {
  try {
    return modelNames.get(executor)?.(request) ?? request.model;
  } catch {
    return request.model;
  }
}

/** Calls `executors[name](request)` (as a method, as before), through the harness's interceptor when there is one. */
export function callExecutor(request: AgentRequest, executors: AgentRequestExecutors, name: ExecutorName, callSite?: Error): unknown {
  const executor = executors[name] as ((request: AgentRequest) => unknown) | undefined;
  const interceptor = modelCallInterceptor();
  if (!interceptor || !executor || isUnrecorded(executor)) return executors[name]!(request as never);
  return intercepted(interceptor, request, executors, name, executor, callSite);
}

async function intercepted(interceptor: ModelCallInterceptor, request: AgentRequest, executors: AgentRequestExecutors, name: ExecutorName, executor: object, callSite?: Error): Promise<unknown> {
  try {
    return await interceptor.call<unknown>({
      library: "stately",
      key: request.name,
      model: modelOf(executor, request),
      input: () => requestInput(request),
      ...(callSite ? { callSite } : {}),
      live: async () => executors[name]!(request as never),
      keep: keepAnswer,
      rebuild: (kept) => kept,
      rebuildError,
      usage: (kept) => usageOf((kept as Answer | undefined)?.usage),
    });
  } catch (error) {
    // A drifted replay ends the run at once (past any onError): it must not look like a model failure.
    throw isReplayError(error) ? markFatal(error as Error) : error;
  }
}

function schemaOf(schema: StandardSchemaV1 | undefined): unknown {
  if (!schema) return undefined;
  return toJsonSchema(schema) ?? `(a ${schema["~standard"]?.vendor ?? "non-zod"} schema without a JSON Schema)`;
}

/** What the executor received, as plain data (`signal` and `invokeId` left out: neither is the request). */
export function requestInput(request: AgentRequest): Record<string, unknown> {
  return {
    kind: request.kind,
    model: request.model,
    system: request.system,
    prompt: request.prompt,
    messages: request.messages,
    input: request.input,
    ...(request.kind === "text" ? { outputSchema: schemaOf(request.outputSchema) } : {}),
    ...(request.kind === "decision"
      ? { events: request.events.map((o) => ({ type: o.type, schema: schemaOf(o.schema), description: o.description })), attempts: request.attempts }
      : {}),
    tools: Object.fromEntries(Object.entries(request.tools).map(([n, t]) => [n, { description: t.description, inputSchema: schemaOf(t.inputSchema) }])),
    settings: request.settings,
  };
}

/** An executor's answer as kept: `{ result | event, reason?, messages?, usage? }`, never `raw`. */
function keepAnswer(answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return plainJson(answer);
  const { raw: _raw, ...rest } = answer as Record<string, unknown>;
  return plainJson(rest);
}

function usageOf(usage: unknown): ModelUsage | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const u = usage as Record<string, unknown>;
  const out: ModelUsage = {};
  for (const k of ["inputTokens", "outputTokens"] as const) {
    const v = u[k];
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A recorded failure as thrown: an AgentError again when it was one (model-output-not-json, no-decision…). */
export function rebuildError(kept: KeptError): Error {
  if (kept.name === "AgentError" && typeof kept.code === "string") {
    return new AgentError(kept.code as AgentErrorCode, kept.message, typeof kept.request === "string" ? { request: kept.request } : {});
  }
  return plainError(kept);
}
