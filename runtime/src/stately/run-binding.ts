// How a run hands its executors to the request actors: runAgent registers a binding on the actor
// system of the actor it creates, and every request actor of that run finds it there. Machines stay
// plain values (no per-run `provide`), so one machine serves many concurrent runs.
import type { AnyActorSystem } from "./xstate";
import type { AgentRequestExecutors, AgentRequest, AgentUsage } from "./types";

export interface CallRecord {
  request: AgentRequest;
  usage?: AgentUsage;
  error?: unknown;
}

export interface RunBinding {
  executors: AgentRequestExecutors;
  signal?: AbortSignal;
  /** Where the user's code started the run (a model call's call site under the harness). */
  callSite?: Error;
  /** Called before each executor call; throws (a fatal error) to refuse it. */
  beforeCall(request: AgentRequest): void;
  /** Called after each executor call with its usage. */
  afterCall(record: CallRecord): void;
  /** Ends the whole run with this error (budgets, exhausted scripts). */
  fail(error: unknown): void;
}

const bindings = new WeakMap<AnyActorSystem, RunBinding>();

export function bindRun(system: AnyActorSystem, binding: RunBinding): void {
  bindings.set(system, binding);
}

export function runBindingOf(system: AnyActorSystem): RunBinding | undefined {
  return bindings.get(system);
}

/** Executors a machine carries itself (provideExecutors), for runs outside runAgent: a plain createActor. */
const provided = new WeakMap<object, AgentRequestExecutors>();

export function provideBinding(machine: object, executors: AgentRequestExecutors): void {
  provided.set(machine, executors);
}

/** The binding of a machine made by provideExecutors: its executors, no budgets, no recording. */
export function providedBindingOf(machine: unknown): RunBinding | undefined {
  const executors = typeof machine === "object" && machine !== null ? provided.get(machine) : undefined;
  if (!executors) return undefined;
  return { executors, beforeCall() {}, afterCall() {}, fail() {} };
}
