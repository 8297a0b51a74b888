// setupAgent: declares an agent's schemas and named requests, and returns the machine factory (an XState
// v6 setup whose actor sources include one request logic per requests key) plus the built-ins.
import { AgentError } from "./errors";
import { buildRequest } from "./execute";
import { createRequestLogic, type AgentRequestLogic } from "./request-logic";
import { pickSettings, type RequestSpec } from "./request-spec";
import { isStandardSchema } from "./schema";
import type { AgentEventSchema, AgentIdlePredicate, AgentModels, AgentRequestsConfig, AgentXStateSetup, DecideInput, DecisionLogicConfig, RequestInvokeInputOf, RequestResultOf, RequestSchemas, SchemasOf, TextLogicConfig } from "./setup-agent-types";
import type { AgentTextRequest, AgentTool } from "./types";
import { setup, type AnyActorLogic, type AnyStateMachine, type EventObject, type StandardSchemaV1 } from "./xstate";

/** What the runtime remembers about a machine made by agent.createMachine. */
export interface AgentDefinition {
  inputSchema?: StandardSchemaV1;
  outputSchema?: StandardSchemaV1;
  contextSchema?: StandardSchemaV1;
  eventSchemas: Record<string, StandardSchemaV1>;
  requests: Record<string, RequestSpec>;
  models: AgentModels;
  isIdle?: AgentIdlePredicate;
}

const definitions = new WeakMap<object, AgentDefinition>();

/** The agent definition behind a machine, when agent.createMachine made it (or `.provide` derived it). */
export function agentDefinitionOf(machine: AnyStateMachine): AgentDefinition | undefined {
  return definitions.get(machine);
}

/** Remembers the definition for a machine and for every machine `.provide(...)` derives from it. */
function registerMachine(machine: AnyStateMachine, definition: AgentDefinition): AnyStateMachine {
  definitions.set(machine, definition);
  const provide = (machine as { provide?: (implementations: unknown) => AnyStateMachine }).provide;
  if (typeof provide === "function") {
    Object.defineProperty(machine, "provide", {
      value: (implementations: unknown) => registerMachine(provide.call(machine, implementations), definition),
      configurable: true,
      writable: true,
    });
  }
  return machine;
}

/** Standard Schemas only: a `{}` event (no payload) has no schema to check. */
function standardSchemas(events: Record<string, AgentEventSchema>): Record<string, StandardSchemaV1> {
  return Object.fromEntries(Object.entries(events).filter(([, schema]) => isStandardSchema(schema))) as Record<string, StandardSchemaV1>;
}

/** A schema that accepts any payload, for XState's view of a `{}` event. */
const ANY_PAYLOAD: StandardSchemaV1 = { "~standard": { version: 1, vendor: "statelyai-agent", validate: (value: unknown) => ({ value }) } };

function specFromConfig(kind: "text" | "decision", config: Record<string, unknown>, name: string | undefined, eventSchemas?: Record<string, StandardSchemaV1>): RequestSpec {
  if (typeof config.model !== "string" || config.model === "") {
    throw new AgentError("invalid-options", `Request ${name ? `"${name}"` : "(unnamed)"} needs a model key: { model: "writer", ... }.`, name ? { request: name } : {});
  }
  const schemas = (config.schemas ?? {}) as RequestSchemas;
  return {
    kind,
    ...(name !== undefined ? { name } : {}),
    model: config.model,
    ...(schemas.input ? { inputSchema: schemas.input } : {}),
    ...(kind === "text" && schemas.output ? { outputSchema: schemas.output } : {}),
    prompt: config.prompt,
    messages: config.messages,
    system: config.system,
    ...(config.tools ? { tools: config.tools as Record<string, AgentTool> } : {}),
    settings: pickSettings(config),
    ...(Array.isArray(config.allowedEvents) ? { allowedEvents: config.allowedEvents as string[] } : {}),
    ...(eventSchemas ? { eventSchemas } : {}),
    ...(typeof config.description === "string" ? { description: config.description } : {}),
  };
}

/** A text request as actor logic, usable as an invoke `src` (inline or in `actors`). */
export function createTextLogic<const S extends RequestSchemas = {}>(
  config: TextLogicConfig<S>,
): AgentRequestLogic<RequestInvokeInputOf<S>, RequestResultOf<S>> {
  return createRequestLogic(specFromConfig("text", config as unknown as Record<string, unknown>, config.name));
}

/** A decision request as actor logic: its executor chooses an event, which is sent to the invoking machine. */
export function createDecisionLogic<const S extends RequestSchemas = {}>(
  config: DecisionLogicConfig<S>,
): AgentRequestLogic<RequestInvokeInputOf<S>, EventObject> {
  return createRequestLogic(specFromConfig("decision", config as unknown as Record<string, unknown>, config.name, config.events));
}

export interface SetupAgentConfig<
  TContextSchema extends StandardSchemaV1,
  TInputSchema extends StandardSchemaV1 | undefined,
  TOutputSchema extends StandardSchemaV1 | undefined,
  TEvents extends Record<string, AgentEventSchema>,
  TReq extends Record<string, unknown>,
  TActors extends Record<string, AnyActorLogic>,
  TGuards extends Record<string, (...args: any[]) => boolean>,
  TDelays extends Record<string, number | ((...args: any[]) => number)>,
> {
  input?: TInputSchema;
  context: TContextSchema;
  output?: TOutputSchema;
  /** Event payload schemas by event type (decisions use them as tool inputs); `{}` for no payload. */
  events?: TEvents;
  models?: AgentModels;
  /** Named requests; leave out for an agent that only decides (`agent.decide`) or runs other actors. */
  requests?: TReq;
  actors?: TActors;
  /** The same as `actors`, under the name later XState v6 alphas and upstream's newer docs use. */
  actorSources?: TActors;
  guards?: TGuards;
  delays?: TDelays;
  /** The machine's own rule for "waiting for an external event" (runAgent settles those snapshots idle). */
  isIdle?: AgentIdlePredicate;
}

/** What setupAgent returns. */
export interface Agent<
  TContextSchema extends StandardSchemaV1,
  TReq extends Record<string, unknown>,
  TInputSchema,
  TOutputSchema,
  TEvents extends Record<string, AgentEventSchema>,
  TActors extends Record<string, AnyActorLogic>,
  TGuards,
  TDelays,
> {
  /** Creates the agent's XState v6 machine; `invoke.src` may name any request key or actor. */
  createMachine: AgentXStateSetup<TContextSchema, TInputSchema, TOutputSchema, TEvents, TReq, TActors, TGuards, TDelays>["createMachine"];
  /** Built-in inline decision: `invoke: { src: agent.decide, input: { model, prompt, name? } }` (also `src: "agent.decide"`). */
  decide: AgentRequestLogic<DecideInput, EventObject>;
  /** The machine schemas as declared. */
  schemas: { context: TContextSchema; input?: TInputSchema; output?: TOutputSchema; events?: TEvents };
  /** The request definitions, by name. */
  requests: TReq;
  /** Builds the request a named request makes for an input (for executeAgentRequest). */
  request<K extends keyof TReq & string>(
    name: K,
    input: RequestInvokeInputOf<SchemasOf<TReq[K]>>,
  ): AgentTextRequest & { readonly __result?: RequestResultOf<SchemasOf<TReq[K]>> };
  createTextLogic: typeof createTextLogic;
  createDecisionLogic: typeof createDecisionLogic;
}

/**
 * Declares an agent: its machine schemas, its model requests and extra actors. `createMachine` returns
 * an XState v6 machine whose `invoke.src` may name any request; `onDone` sees `{ result, messages }`.
 */
export function setupAgent<
  TContextSchema extends StandardSchemaV1,
  const TSchemas extends object = {},
  TInputSchema extends StandardSchemaV1 | undefined = undefined,
  TOutputSchema extends StandardSchemaV1 | undefined = undefined,
  const TEvents extends Record<string, AgentEventSchema> = {},
  TActors extends Record<string, AnyActorLogic> = {},
  TGuards extends Record<string, (...args: any[]) => boolean> = {},
  TDelays extends Record<string, number | ((...args: any[]) => number)> = {},
>(
  config: SetupAgentConfig<TContextSchema, TInputSchema, TOutputSchema, TEvents, AgentRequestsConfig<TSchemas>, TActors, TGuards, TDelays>,
): Agent<TContextSchema, AgentRequestsConfig<TSchemas>, TInputSchema, TOutputSchema, TEvents, TActors, TGuards, TDelays> {
  type TReq = AgentRequestsConfig<TSchemas>;
  if (typeof config !== "object" || config === null) {
    throw new AgentError("invalid-options", "setupAgent needs a config object: setupAgent({ context, requests?: { name: { model, prompt } }, events? }).");
  }
  if (config.requests !== undefined && (typeof config.requests !== "object" || config.requests === null || Array.isArray(config.requests))) {
    throw new AgentError("invalid-options", "setupAgent: `requests` must be a map of named requests ({ name: { model, prompt } }), or left out for an agent that only decides.");
  }
  if (config.isIdle !== undefined && typeof config.isIdle !== "function") {
    throw new AgentError("invalid-options", "setupAgent: isIdle must be a function of the snapshot returning true for a state that waits for an external event.");
  }
  const eventSchemas = standardSchemas((config.events ?? {}) as Record<string, AgentEventSchema>);
  const specs: Record<string, RequestSpec> = {};
  const requestActors: Record<string, AnyActorLogic> = {};
  for (const [name, requestConfig] of Object.entries((config.requests ?? {}) as unknown as Record<string, Record<string, unknown>>)) {
    specs[name] = specFromConfig("text", requestConfig, name);
    requestActors[name] = createRequestLogic(specs[name]);
  }
  const decideSpec: RequestSpec = { kind: "decision", inline: true, settings: {}, eventSchemas };
  const decide = createRequestLogic<DecideInput, EventObject>(decideSpec);

  const schemas = {
    context: config.context,
    ...(config.input ? { input: config.input } : {}),
    ...(config.output ? { output: config.output } : {}),
    ...(config.events
      ? { events: Object.fromEntries(Object.keys(config.events).map((type) => [type, eventSchemas[type] ?? ANY_PAYLOAD])) }
      : {}),
  };

  const machineSetup = setup({
    schemas: schemas as never,
    // "agent.decide" as a string src (upstream's spelling) runs too; it is left out of the types, where
    // any registered actor would make XState narrow inline request logic.
    actors: { ...(config.actors ?? {}), ...(config.actorSources ?? {}), ...requestActors, "agent.decide": decide },
    guards: (config.guards ?? {}) as never,
    delays: (config.delays ?? {}) as never,
  });

  const definition: AgentDefinition = {
    ...(config.input ? { inputSchema: config.input } : {}),
    ...(config.output ? { outputSchema: config.output } : {}),
    contextSchema: config.context,
    eventSchemas,
    requests: specs,
    models: { ...(config.models ?? {}) },
    ...(config.isIdle ? { isIdle: config.isIdle } : {}),
  };

  const createMachine = ((machineConfig: unknown) =>
    registerMachine((machineSetup.createMachine as (c: unknown) => AnyStateMachine)(machineConfig), definition)) as unknown as Agent<TContextSchema, TReq, TInputSchema, TOutputSchema, TEvents, TActors, TGuards, TDelays>["createMachine"];

  return {
    createMachine,
    decide,
    schemas: {
      context: config.context,
      ...(config.input ? { input: config.input } : {}),
      ...(config.output ? { output: config.output } : {}),
      ...(config.events ? { events: config.events } : {}),
    },
    requests: (config.requests ?? {}) as TReq,
    request(name, input) {
      const spec = specs[name];
      if (!spec) {
        throw new AgentError("unknown-request", `No request named "${name}"; declared requests: ${Object.keys(specs).join(", ") || "(none)"}.`, { request: name });
      }
      return buildRequest(spec, input, { invokeId: "" }) as AgentTextRequest;
    },
    createTextLogic,
    createDecisionLogic,
  };
}
