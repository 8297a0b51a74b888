// The types of setupAgent (setup-agent.ts): a request's schemas and config, the inline request logics'
// configs, the decision input, models, event schemas, and the XState setup an agent amounts to. The
// public ones are `@statelyai/agent`'s (index.ts).
import type { AgentRequestLogic } from "./request-logic";
import type { AgentMessage, AgentSamplingSettings, AgentTool } from "./types";
import type { AnyActorLogic, AnyMachineSnapshot, EventObject, SetupReturnFromConfig, StandardSchemaV1 } from "./xstate";

/** The schemas of one request. */
export interface RequestSchemas {
  input?: StandardSchemaV1;
  output?: StandardSchemaV1;
}

// What a prompt function sees as `input`: the type of its request's input schema (`any` without one).
type RequestInputOf<S> = S extends { input: infer I extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<I> : any;
export type RequestInvokeInputOf<S> = S extends { input: infer I extends StandardSchemaV1 } ? StandardSchemaV1.InferInput<I> : unknown;
/** A request's result type: its output schema's type, a string by default. */
export type RequestResultOf<S> = S extends { output: infer O extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<O> : string;

// NoInfer: the function is typed from `schemas`, never a source of their inference (which would blur the entry's
// type); Plain: the entry is a reverse-mapped type (see AgentRequestsConfig), read through a mapped copy.
type Render<S, T> = T | ((args: { input: RequestInputOf<Plain<NoInfer<S>>> }) => T);

/** One entry of setupAgent({ requests }). */
export type AgentRequestConfig<S = RequestSchemas> = AgentSamplingSettings & {
  /** The model key executors route on. */
  model: string;
  schemas?: S;
  prompt?: Render<S, string>;
  messages?: Render<S, AgentMessage[]>;
  system?: Render<S, string>;
  tools?: Record<string, AgentTool>;
  description?: string;
};

/**
 * The requests map as setupAgent reads it: a mapped type over each entry's schemas, so TypeScript infers the schemas
 * of every entry first and then types that entry's `prompt` / `messages` / `system` functions from them.
 */
export type AgentRequestsConfig<TSchemas> = { [K in keyof TSchemas]: AgentRequestConfig<TSchemas[K]> };

/** Options of createTextLogic: a request outside the requests map (optionally named). */
export type TextLogicConfig<S extends RequestSchemas = RequestSchemas> = AgentRequestConfig<S> & { name?: string };

/** Options of createDecisionLogic. */
export type DecisionLogicConfig<S extends RequestSchemas = RequestSchemas> = Omit<AgentRequestConfig<S>, "schemas"> & {
  name?: string;
  schemas?: { input?: S["input"] };
  /** Event types the decision may choose (default: every event the invoking state accepts). */
  allowedEvents?: string[];
  /** Payload schemas by event type. */
  events?: Record<string, StandardSchemaV1>;
};

/** The input of an inline `agent.decide` invoke. */
export interface DecideInput extends AgentSamplingSettings {
  /** Names the decision (scripts and executors route on it); default: the invoke id. */
  name?: string;
  model: string;
  prompt?: string;
  messages?: AgentMessage[];
  system?: string;
  allowedEvents?: string[];
  /** Optional data for the executor (passed as `request.input`). */
  input?: unknown;
}

/** Models declared for documentation and tooling: model key → a provider model id, a description, or the
 *  provider's model object itself (as upstream's quickstart passes `openai("…")`); runs never read it. */
export type AgentModels = Record<string, string | { id?: string; description?: string } | object>;

/** An event's payload schema: a Standard Schema, or `{}` for an event without a payload. */
export type AgentEventSchema = StandardSchemaV1 | Record<string, never>;

/** The event schemas XState sees: `{}` stands for an empty payload. */
type XStateEventSchemas<TEvents> = { [K in keyof TEvents]: TEvents[K] extends StandardSchemaV1 ? TEvents[K] : StandardSchemaV1<{}, {}> };

/** Says which snapshots are intentional waits for an external event (see runAgent's idle rule). */
export type AgentIdlePredicate = (snapshot: AnyMachineSnapshot) => boolean;

/** The schemas of a request config, copied into a plain object type: an entry inferred through the requests map is a
 *  reverse-mapped type, which conditional types (`infer`) do not read reliably until it is mapped once. */
export type SchemasOf<C> = C extends { schemas?: infer S } ? Plain<undefined extends S ? Exclude<S, undefined> : S> : {};
type Plain<T> = { [K in keyof T]: T[K] };

type RequestActors<TReq extends Record<string, unknown>> = {
  [K in keyof TReq]: AgentRequestLogic<RequestInvokeInputOf<SchemasOf<TReq[K]>>, RequestResultOf<SchemasOf<TReq[K]>>>;
};

type Compute<T> = { [K in keyof T]: T[K] } & {};
/**
 * `src: "agent.decide"` (upstream's spelling) in the types, when the agent registers other sources: then XState
 * types `src` from the registered ones anyway. With none registered it stays out, because one registered source
 * makes XState type inline request logic (`src: createTextLogic(...)`) against it and `onDone`'s output breaks;
 * there `src: agent.decide` types and `"agent.decide"` runs but is a type error (README, known type limits).
 */
type DecideSource<TNames> = [TNames] extends [never] ? {} : { "agent.decide": AgentRequestLogic<DecideInput, EventObject> };
type OptionalSchema<K extends string, T> = T extends StandardSchemaV1 ? { [P in K]: T } : {};

/** The XState setup an agent amounts to: its schemas, and one actor source per request plus `actors`. */
export type AgentXStateSetup<
  TContextSchema extends StandardSchemaV1,
  TInputSchema,
  TOutputSchema,
  TEvents extends Record<string, AgentEventSchema>,
  TReq extends Record<string, unknown>,
  TActors extends Record<string, AnyActorLogic>,
  TGuards,
  TDelays,
> = SetupReturnFromConfig<{
  schemas: Compute<
    { context: TContextSchema } & OptionalSchema<"input", TInputSchema> & OptionalSchema<"output", TOutputSchema> &
      ([keyof TEvents] extends [never] ? {} : { events: XStateEventSchemas<TEvents> })
  >;
  actors: Compute<RequestActors<TReq> & TActors & DecideSource<keyof TReq | keyof TActors>>;
  guards: TGuards & {};
  delays: TDelays & {};
}>;
