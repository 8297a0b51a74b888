// Public types of requests, executors and their results.
import type { EventObject, StandardSchemaV1 } from "./xstate";

/** Output type of a schema, or a default when no schema is given. */
export type InferSchema<TSchema, TDefault = unknown> = TSchema extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<TSchema>
  : TDefault;

/** A chat message as executors see it (the AI SDK's ModelMessage shape, kept structural). */
export interface AgentMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | ReadonlyArray<unknown>;
  [key: string]: unknown;
}

/** Token usage of a model call; summed over a run. */
export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  [key: string]: unknown;
}

/** Usage of a whole run: token sums plus the number of model calls made. */
export interface AgentRunUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  modelCalls: number;
}

/** Sampling settings a request may carry; passed to the executor as is. */
export interface AgentSamplingSettings {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  maxRetries?: number;
}

/** A tool a request offers the model (description plus an input schema). */
export interface AgentTool {
  description?: string;
  inputSchema?: StandardSchemaV1;
}

/** An event a decision may choose: its type, the tool the AI SDK adapter offers for it, the payload schema, a description. */
export interface AgentDecisionOption {
  type: string;
  /** `send_event_<TYPE>`: the tool a model calls to choose this event. */
  toolName: string;
  schema?: StandardSchemaV1;
  description?: string;
}

interface AgentRequestBase {
  /** The requests key, the createTextLogic / createDecisionLogic name, the inline decide name, else the invoke id. */
  name: string;
  /** The model key executors route on (`createAiSdkExecutors({ models })` looks it up). */
  model: string;
  prompt?: string;
  messages?: AgentMessage[];
  system?: string;
  /** The request's input, validated against its input schema. */
  input: unknown;
  tools: Record<string, AgentTool>;
  settings: AgentSamplingSettings;
  /** The id of the invoke that made the call ("" when the request runs outside a machine). */
  invokeId: string;
  /** Aborted when the run is cancelled or the invoking state is left. */
  signal?: AbortSignal;
}

/** A text request: plain text (string output) or structured (any other output schema). */
export interface AgentTextRequest extends AgentRequestBase {
  kind: "text";
  /** The declared output schema (undefined: a plain string). */
  outputSchema: StandardSchemaV1 | undefined;
  /** True when the output is not a plain string (the provider is asked for JSON `{ "result": ... }`). */
  structured: boolean;
}

/** A failed choice of an earlier attempt at the same decision (upstream's `request.attempts`). */
export interface AgentDecisionAttempt {
  /** The event the executor chose, when it chose one. */
  event?: ChosenEvent;
  /** `unknown-event`: not offered; `invalid-payload`: its schema refused the payload; `rejected`: a guard refused it. */
  failure: "unknown-event" | "invalid-payload" | "rejected";
  message: string;
}

/** A decision request: choose one of the events the invoking state accepts. */
export interface AgentDecisionRequest extends AgentRequestBase {
  kind: "decision";
  outputSchema: undefined;
  structured: false;
  /** The events the decision may choose, in declaration order (upstream's name; decide executors read it). */
  events: AgentDecisionOption[];
  /** The failed choices of earlier attempts at this decision, oldest first (empty on the first attempt). */
  attempts: AgentDecisionAttempt[];
}

export type AgentRequest = AgentTextRequest | AgentDecisionRequest;

/** What an executor returns for a text request. Nothing else is accepted. */
export interface AgentRequestExecutorResult<TResult = unknown> {
  result: TResult;
  messages?: AgentMessage[];
  usage?: AgentUsage;
  raw?: unknown;
}

/** An event a decision chooses (or a script delivers): its type plus its payload. */
export interface ChosenEvent {
  type: string;
  [key: string]: unknown;
}

/** What a decide executor returns: the chosen event (and, optionally, why). */
export interface AgentDecisionResult {
  event: EventObject;
  reason?: string;
  messages?: AgentMessage[];
  usage?: AgentUsage;
  raw?: unknown;
}

type MaybePromise<T> = T | PromiseLike<T>;

export type AgentRequestExecutor = (request: AgentTextRequest) => MaybePromise<AgentRequestExecutorResult>;
export type AgentDecisionExecutor = (request: AgentDecisionRequest) => MaybePromise<AgentDecisionResult>;

/** The functions that answer a machine's requests. */
export interface AgentRequestExecutors {
  generateText?: AgentRequestExecutor;
  decide?: AgentDecisionExecutor;
}

/** What a request actor outputs (what `onDone` sees as `output`). */
export interface AgentTextResult<TResult = unknown> {
  result: TResult;
  messages: AgentMessage[];
}
