// What a user writes: flows, steps, triggers, predicates, actions, events, conditions, tools, instructions
// and the agent's options (fields and parameters: fields.ts). Names and shapes follow falai-dev/agent's v4 reference.
import type { AiProvider, History, StructuredSchema } from "./provider";
import type { Run } from "./session";
import type { FieldDefs, ParamDefs } from "./fields";

// ---------------------------------------------------------------------------------------------------
// Predicates, conditions

/** Text with `{{data.x}}`, `{{context.x}}` and `{{input.x}}` placeholders. */
export type Template = string;
/** `"30s"`, `"5m"`, `"24h"`, `"3d"`, `"1h30m"`, `"500ms"`. */
export type Duration = string;

export interface PredCtx<C = unknown, D = unknown, P = unknown> {
  context: C;
  data: Partial<D>;
  input: P;
  run?: Run;
  silenced?: string;
  now: Date;
}

/** The JSON form of a predicate: every listed entry must hold. Other keys name a registered condition. */
export interface ConditionSpec<D = any> {
  equals?: Partial<D>;
  known?: (keyof D & string)[];
  silenced?: boolean;
  [condition: string]: unknown;
}

export type Pred<C = unknown, D = unknown, P = unknown> = ((ctx: PredCtx<C, D, P>) => boolean) | ConditionSpec<D>;

export interface Condition<C = unknown, D = unknown, Arg = unknown> {
  check(ctx: PredCtx<C, D>, arg: Arg): boolean;
}
export type ConditionMap<C = unknown, D = unknown> = Record<string, Condition<C, D, any>>;

// ---------------------------------------------------------------------------------------------------
// Actions, events

export type ActionResult =
  | { ok: true; detail?: string; spoke?: true }
  | { skipped: string }
  | { failed: string }
  | { defer: Duration; detail: string };

export interface ActionCtx<C = unknown, D = unknown> {
  context: C;
  data: Partial<D>;
  input: unknown;
  run: Run;
  /** `${runId}:${stepId}:${visit}`: the same on a replay and on a deferred re-run. */
  key: string;
  /** `${flowId}:${anchor}:${nonce}`: the run's claim key. */
  dedupeKey: string;
  silenced?: string;
  now: Date;
  /** Writes fields into the session's data at once, as given (no coercion). */
  set(patch: Partial<D>): void;
}

export interface Action<C = unknown, D = unknown, P = Record<string, unknown>> {
  description?: string;
  parameters: ParamDefs;
  run(params: P, ctx: ActionCtx<C, D>): ActionResult | Promise<ActionResult>;
}
export type ActionMap<C = unknown, D = unknown> = Record<string, Action<C, D, any>>;

export interface EventDef<P = unknown> {
  direction?: "inbound" | "outbound";
  /** Phantom: the payload type, never set at run time. */
  readonly payload?: P;
}
export type EventMap = Record<string, EventDef<any>>;

// ---------------------------------------------------------------------------------------------------
// Tools

export interface ToolCtx<C = unknown, D = unknown> {
  context: C;
  data: Partial<D>;
  history: History;
  run?: Run;
  now: Date;
}
export interface ToolResult<D = unknown> {
  value?: unknown;
  data?: Partial<D>;
}
export interface ToolValidationResult {
  valid: boolean;
  error?: string;
  correctedInput?: Record<string, unknown>;
}
export interface ToolPermissionResult {
  allowed: boolean;
  reason?: string;
}
export interface Tool<C = unknown, D = unknown> {
  id: string;
  description?: string;
  /** A JSON Schema object for the arguments: `{ type: "object", properties, required }`. */
  parameters?: StructuredSchema;
  handler(args: Record<string, unknown>, ctx: ToolCtx<C, D>): ToolResult<D> | void | Promise<ToolResult<D> | void>;
  isConcurrencySafe?(input: Record<string, unknown>): boolean;
  isReadOnly?(input: Record<string, unknown>): boolean;
  isDestructive?(input: Record<string, unknown>): boolean;
  maxResultSizeChars?: number;
  validateInput?(input: Record<string, unknown>, ctx: ToolCtx<C, D>): ToolValidationResult | Promise<ToolValidationResult>;
  checkPermissions?(input: Record<string, unknown>, ctx: ToolCtx<C, D>): ToolPermissionResult | Promise<ToolPermissionResult>;
}

// ---------------------------------------------------------------------------------------------------
// Instructions

export interface Instruction<C = unknown, D = unknown> {
  id?: string;
  kind?: "must" | "never" | "should";
  /** Judged by the model: rendered beside the rule as "apply only when". */
  when?: string | string[];
  /** Judged by code when the speak request is built; false leaves the rule out. */
  if?: Pred<C, D>;
  prompt: Template;
}

// ---------------------------------------------------------------------------------------------------
// Triggers

export type Repeat = "once" | "always" | { cooldown: Duration };

export type Trigger<C = unknown, D = unknown> = { repeat?: Repeat } & (
  | { message: string[]; if?: Pred<C, D> }
  | { mention: string[]; extract?: ParamDefs; if?: Pred<C, D> }
  | { silence: Duration; if?: Pred<C, D>; businessHours?: boolean }
  | { event: string; if?: Pred<C, D>; after?: Duration; businessHours?: boolean }
);

// ---------------------------------------------------------------------------------------------------
// Steps

/** Where a run goes: a step id, `"end"`, `{ step, clear }`, or `{ flow, input }` (another flow, one hop deeper). */
export type Next<D = unknown> = string | { step: string; clear?: (keyof D & string)[] } | { flow: Template; input?: unknown };

export interface StepBase<D = unknown> {
  id: string;
  /** For editors and logs; the runtime never reads it. */
  label?: string;
  then?: Next<D>;
  /** Editor data the runtime carries and never reads. */
  ui?: Record<string, unknown>;
}

export interface Branch<C = unknown, D = unknown> {
  /** Judged by the model on the customer's message while the step asks. */
  when?: string | string[];
  /** Judged by code. */
  if?: Pred<C, D>;
  then: Next<D>;
}

interface TalkFields<C, D> {
  /** Per-step wording for a field (wins over the field's own `ask`). */
  ask?: Partial<Record<keyof D & string, string>>;
  /** A fixed first question, sent word for word. */
  question?: Template;
  maxAsks?: number;
  branches?: Branch<C, D>[];
  tools?: string[];
  instructions?: Instruction<C, D>[];
}
export type TalkStep<C = unknown, D = unknown> = (
  | { prompt: Template; collect?: (keyof D & string)[] }
  | { collect: (keyof D & string)[]; prompt?: Template }
) &
  TalkFields<C, D>;
export interface SayStep {
  say: Template;
  media?: { slug: string };
  once?: boolean;
}
export interface DoStep<D = unknown> {
  do: string;
  with?: Record<string, unknown>;
  onFail?: Next<D>;
}
export interface WaitStep<C = unknown, D = unknown> {
  wait: Duration;
  businessHours?: boolean;
  else?: Next<D>;
  branches?: Branch<C, D>[];
}
export interface WaitEventStep<D = unknown> {
  wait: { event: string; upTo?: Duration };
  else?: Next<D>;
}
export interface IfStep<C = unknown, D = unknown> {
  if: Pred<C, D>;
  else?: Next<D>;
}

export type Step<C = unknown, D = unknown> = StepBase<D> &
  (TalkStep<C, D> | SayStep | DoStep<D> | WaitStep<C, D> | WaitEventStep<D> | IfStep<C, D>);

// ---------------------------------------------------------------------------------------------------
// Flows

export interface Flow<C = unknown, D = unknown> {
  id: string;
  name: string;
  description?: string;
  on?: Trigger<C, D>[];
  /** `'session'` (default) or the name of a host anchor passed in `turn({ anchors })`. */
  anchor?: string;
  /** Re-checked before the run moves; default: the starting trigger's `if`. */
  while?: Pred<C, D>;
  /** Every field this flow needs; its talk steps ask for them. */
  collect?: (keyof D & string)[];
  clearOnStart?: (keyof D & string)[];
  steps: Step<C, D>[];
  onEnd?: "end" | "stay" | "reset";
  instructions?: Instruction<C, D>[];
  tools?: string[];
}

// ---------------------------------------------------------------------------------------------------
// The agent

export type Clock = () => Date;

export type Idle<C = unknown, D = unknown> = { prompt: Template; tools?: string[]; instructions?: Instruction<C, D>[] } | "silent";

export type BusinessHours<C = unknown> = (at: Date, ctx: { context: C }) => Date;

export interface AgentOptions<C = unknown, D = unknown> {
  name: string;
  goal?: Template;
  persona?: Template;
  provider: AiProvider;
  fields: FieldDefs;
  flows?: Flow<C, D>[];
  actions?: ActionMap<C, D>;
  events?: EventMap;
  conditions?: ConditionMap<C, D>;
  tools?: Tool<C, D>[];
  instructions?: Instruction<C, D>[];
  /** Any JSON the model should know; rendered as nested bullets. */
  knowledgeBase?: Record<string, unknown>;
  idle?: Idle<C, D>;
  clock?: Clock;
  businessHours?: BusinessHours<C>;
  /** Tool rounds per speak call (default 5); `0` offers no tools. */
  maxToolLoops?: number;
  /** Logs each turn's outcome lines to the console. */
  debug?: boolean;
}
