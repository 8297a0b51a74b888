// The public types of `@falai/agent`: fields, flows, steps, triggers, the provider contract, turn inputs
// and results, sessions and outcomes. No behaviour lives here.

// ---------------------------------------------------------------------------------------------------
// Durations and the clock

export type DurationUnit = "ms" | "s" | "m" | "h" | "d";
/** `"24h"`, `"2d"`, `"90m"`, `"1h30m"`, `"30s"`, `"500ms"`, or a number of milliseconds. */
export type Duration = number | `${number}${DurationUnit}` | `${number}${DurationUnit}${number}${DurationUnit}${string}`;

export interface Clock {
  now(): Date;
}

// ---------------------------------------------------------------------------------------------------
// Fields

interface FieldCommon {
  /** How the agent should ask for it (reaches the speak prompt while the field is pending). */
  ask?: string;
  description?: string;
}
export type ScalarFieldSpec = FieldCommon & { type: "string" | "number" | "boolean" };
export type EnumFieldSpec = FieldCommon & { type: "enum"; values: readonly string[] };
export type FieldSpec = ScalarFieldSpec | EnumFieldSpec;
export type FieldsSpec = Record<string, FieldSpec>;

export type FieldValue<S> = S extends { type: "enum"; values: readonly (infer V)[] }
  ? V
  : S extends { type: "string" }
    ? string
    : S extends { type: "number" }
      ? number
      : S extends { type: "boolean" }
        ? boolean
        : never;

/** Session data: every field optional until the customer gives it. */
export type DataFromFields<F> = { -readonly [K in keyof F]?: FieldValue<F[K]> };
export type FieldName<F> = keyof F & string;

/** `DataOf<typeof f>` (the builder), `DataOf<typeof agent>` or `DataOf<typeof flow>`. */
export type DataOf<T> = T extends { readonly fields: infer F } ? DataFromFields<F> : T extends { readonly __fields?: infer F } ? DataFromFields<F> : never;

// ---------------------------------------------------------------------------------------------------
// Flows, steps, triggers

/** A message trigger: starts when `understand` scores the message against these descriptions. `[]` is a catch-all. */
export interface MessageTrigger {
  message: readonly string[];
}
/** A silence trigger: starts when the assistant spoke last and the customer stayed silent this long. */
export interface SilenceTrigger {
  silence: Duration;
}
/** A mention trigger: starts when `understand` says the customer brought this up; `extract` fields come with it. */
export interface MentionTrigger<F> {
  /** What the customer brings up (several phrasings: a list). */
  mention: string | readonly string[];
  extract?: readonly FieldName<F>[];
}
export type Trigger<F> = MessageTrigger | SilenceTrigger | MentionTrigger<F>;

export interface Branch<S extends string = string> {
  /** A condition on the customer's message, judged by `understand`. A branch without one is the
   *  "otherwise" branch: it must come last, and is taken when no other branch holds. */
  when?: string;
  goto: S | "end";
}

export interface StepDef<F, S extends string = string> {
  id: S;
  /** What this step should say (reaches the speak prompt). */
  prompt?: string;
  /** Fields this step asks for; it stays `asking` until each has a value. */
  collect?: readonly FieldName<F>[];
  /** Park the run this long; a customer message meanwhile sends it to `else`. */
  wait?: Duration;
  else?: NoInfer<S> | "end";
  /** Registered actions to run (once per visit). */
  do?: string | readonly string[];
  /** Registered tools offered to `speak` on this step. */
  tools?: readonly string[];
  branches?: readonly Branch<NoInfer<S>>[];
}

export interface FlowDef<F, S extends string = string> {
  id: string;
  name?: string;
  description?: string;
  on?: readonly Trigger<F>[];
  steps: readonly StepDef<F, S>[];
}

export interface Flow<F = FieldsSpec> {
  readonly kind: "flow";
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly on: readonly Trigger<F>[];
  readonly steps: readonly StepDef<F, string>[];
  /** Phantom: the fields this flow was built against. */
  readonly __fields?: F;
}

// ---------------------------------------------------------------------------------------------------
// Actions and tools

export interface ActionContext<Data> {
  /** `${runId}:${stepId}:${visit}`: the step visit this action runs in (identical on a replay). */
  key: string;
  /** `${key}:${actionName}`: pass it to the side effect's idempotency key (identical on a replay). */
  dedupeKey: string;
  action: string;
  sessionId: string;
  runId: string;
  flowId: string;
  stepId: string;
  data: Readonly<Data>;
  /** The agent clock's time. */
  now: Date;
}
/** Return a partial data object to store it in the session (stored as JSON). */
export type ActionHandler<Data> = (ctx: ActionContext<Data>) => void | Partial<Data> | Promise<void | Partial<Data>>;

export interface ActionDef<Data = Record<string, unknown>, N extends string = string> {
  readonly kind: "action";
  readonly name: N;
  readonly handler: ActionHandler<Data>;
}

export type JsonSchema = Record<string, unknown>;

/** A zod 4 schema, any Standard Schema, or a plain JSON schema object. */
export type ToolParameters = JsonSchema | { "~standard": unknown };

export interface ToolContext<Data> {
  key: string;
  sessionId: string;
  runId: string;
  flowId: string;
  stepId: string;
  data: Readonly<Data>;
  now: Date;
}

export interface ToolSpec<Data = Record<string, unknown>, Args = any> {
  description?: string;
  parameters?: ToolParameters;
  run: (args: Args, ctx: ToolContext<Data>) => unknown;
}
export interface ToolDef<Data = Record<string, unknown>, Args = any> extends ToolSpec<Data, Args> {
  readonly kind?: "tool";
  name: string;
}

// ---------------------------------------------------------------------------------------------------
// The provider contract

export interface ProviderCapabilities {
  supportsTools: boolean;
  supportsNativeJsonSchema: boolean;
  supportsStreaming: boolean;
  supportsStreamingToolCalls: boolean;
  supportsPromptCaching: boolean;
}

export interface HistoryItem {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  /** For `role: "tool"`: the tool that produced this content. */
  toolName?: string;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema of the arguments. */
  parameters: JsonSchema;
}

export interface ToolCall {
  toolName: string;
  arguments?: Record<string, unknown>;
  id?: string;
}

export interface GenerateMessageParameters {
  /** `"understand"` or `"speak"`: what the call is for. */
  schemaName?: string | undefined;
  /** The JSON schema the structured reply follows. */
  jsonSchema?: JsonSchema | undefined;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
}

export interface GenerateMessageInput<TContext = unknown> {
  /** Every instruction of this call, as one text. */
  prompt: string;
  /** The conversation so far (the caller's `history`, then the customer's message, then tool results). */
  history: HistoryItem[];
  /** Tools offered on this call (speak on a step with `tools`). */
  tools?: ToolDefinition[] | undefined;
  parameters?: GenerateMessageParameters | undefined;
  context?: TContext | undefined;
  signal?: AbortSignal | undefined;
}

export interface Usage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
}

export interface GenerateMessageOutput<T = unknown> {
  message: string;
  structured?: T | undefined;
  toolCalls?: ToolCall[] | undefined;
  usage?: Usage | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface GenerateMessageStreamChunk<T = unknown> {
  delta: string;
  accumulated: string;
  done: boolean;
  structured?: T | undefined;
  toolCalls?: ToolCall[] | undefined;
  usage?: Usage | undefined;
}

export interface AiProvider {
  name: string;
  capabilities: ProviderCapabilities;
  generateMessage<TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<TContext>): Promise<GenerateMessageOutput<TStructured>>;
  generateMessageStream?<TContext = unknown, TStructured = unknown>(input: GenerateMessageInput<TContext>): AsyncIterable<GenerateMessageStreamChunk<TStructured>>;
}

/** What `understand` returns: every section present, empty when there is nothing to say. */
export interface UnderstandEnvelope {
  flows?: Record<string, number>;
  mentions?: Record<string, boolean>;
  extract?: Record<string, Record<string, unknown>>;
  /** `"runId/stepId/index"` → the `when` holds. */
  branches?: Record<string, boolean>;
  fields?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------
// Sessions

export type RunStatus = "active" | "asking" | "waiting" | "deferred" | "done";

export interface RunState {
  runId: string;
  flowId: string;
  trigger: TriggerKind;
  triggerKey: string;
  /** The step the run is on (the last step it was on once `done`). */
  stepId: string;
  status: RunStatus;
  /** stepId → how many times the step was acted on (entered, or asked again). */
  visits: Record<string, number>;
  /** This visit already spoke / ran its actions / finished its wait. */
  spoke: boolean;
  did: boolean;
  waited: boolean;
  startedAt: string;
  updatedAt: string;
  /** While `waiting`: the wake key and when it is due. */
  waitKey?: string;
  until?: string;
  /** While `deferred`: the retry key and how many attempts failed in a row. */
  retryKey?: string;
  attempts?: number;
}

export interface Session<Data = Record<string, unknown>> {
  id: string;
  /** The store version this session was loaded at (0 for a new session); a changed turn returns it + 1. */
  version: number;
  data: Data;
  runs: RunState[];
  /** Who spoke last, and when the assistant last spoke (silence keys carry it). */
  lastSpeaker?: "customer" | "assistant";
  lastAssistantAt?: string;
  /** The last message ids this session handled (capped), for `duplicate-input`. */
  seen: string[];
}

// ---------------------------------------------------------------------------------------------------
// Turns

export type TurnKind =
  | { message: string; id: string; wake?: undefined }
  | { wake: string; message?: undefined; id?: undefined };

export type TurnInput<Data = Record<string, unknown>> = TurnKind & {
  sessionId: string;
  /** The stored session (absent or undefined for a new one). */
  session?: Session<Data> | undefined;
  /** The conversation so far, as the caller keeps it. */
  history?: HistoryItem[] | undefined;
  /** A human holds the conversation: spend no call, phrase nothing; `do` steps still run. A reason or `true`. */
  silenced?: string | boolean | undefined;
};

export interface AgentMessage {
  /** `${runId}:${stepId}:${visit}` */
  key: string;
  runId: string;
  flowId: string;
  stepId: string;
  role: "assistant";
  text: string;
  at: string;
}

export type TriggerKind = "message" | "catch-all" | "mention" | "silence";

export interface StartedRun {
  runId: string;
  flowId: string;
  trigger: TriggerKind;
  triggerKey: string;
  at: string;
}

export interface ScheduleEntry {
  /** What the queue job carries and what goes back as `wake`. */
  key: string;
  sessionId: string;
  /** When it is due (ISO). */
  at: string;
  kind: "silence" | "wait" | "retry";
}

export type OutcomeKind = "turn" | "understand" | "collect" | "speak" | "tool" | "wait" | "do" | "branch" | "end";

export type OutcomeCode =
  | "duplicate-input"
  | "stale-wake"
  | "no-flow"
  | "provider-unavailable"
  | "empty-reply"
  | "understood"
  | "collected"
  | "bad-value"
  | "not-in-enum"
  | "unknown-field"
  | "spoke"
  | "silenced"
  | "tool-ran"
  | "tool-failed"
  | "unknown-tool"
  | "tool-loop"
  | "wait-elapsed"
  | "wait-interrupted"
  | "action-ran"
  | "action-failed"
  | "branch-taken"
  | "no-branch"
  | "flow-done"
  | "step-loop";

/**
 * One line of the execution log. Every line has `kind`, `status` and `at`; lines about a run carry
 * `runId`, `flowId`, `stepId`, `key`. Every line carries a stable `code` and an English `message`, except
 * a wait that parks (`kind: "wait", status: "waiting"`), whose shape the document pins to exactly
 * `{ runId, flowId, stepId, key, kind, status, until, at }`.
 */
export interface Outcome {
  kind: OutcomeKind;
  status: string;
  code?: OutcomeCode;
  message?: string;
  runId?: string;
  flowId?: string;
  stepId?: string;
  key?: string;
  at: string;
  until?: string;
  field?: string;
  value?: unknown;
  action?: string;
  tool?: string;
  goto?: string;
}

export interface TurnResult<Data = Record<string, unknown>> {
  /** False for an ignored turn (duplicate, stale): nothing to save, nothing to schedule. */
  changed: boolean;
  session: Session<Data>;
  /** Provider calls spent. */
  llmCalls: number;
  /** Summed when the provider reports token counts; absent otherwise. */
  usage?: Usage;
  messages: AgentMessage[];
  outcomes: Outcome[];
  schedule: ScheduleEntry[];
  started: StartedRun[];
}

export type TurnStreamEvent<Data = Record<string, unknown>> =
  | { done: false; delta: string; accumulated: string; key: string }
  | { done: true; result: TurnResult<Data> };

// ---------------------------------------------------------------------------------------------------
// The agent

export interface AgentOptions<F> {
  name: string;
  provider: AiProvider;
  /** Every time comes from it; a real system clock when absent. */
  clock?: Clock;
  flows: readonly Flow<F>[];
  /** Extra instructions for every speak call. */
  instructions?: string;
  /** `[f.tool({...})]`, `{ orcamento: { description, parameters, run } }` or `{ orcamento: f.tool({...}) }`. */
  tools?: readonly ToolDef<DataFromFields<F>>[] | Record<string, ToolSpec<DataFromFields<F>>>;
  /** `[f.action("crm", fn)]`, `{ crm: fn }` or `{ crm: f.action("crm", fn) }`. */
  actions?: readonly ActionDef<DataFromFields<F>>[] | Record<string, ActionHandler<DataFromFields<F>> | ActionDef<DataFromFields<F>>>;
}
