// Runs one leg of a machine: start (or resume from a snapshot and deliver an event), let the request
// actors call the executors, and settle when the machine is done, errored, or idle (no invoked work
// left, waiting for an external event). Shared by runAgent, runSeam and simulateAgent.
import { AgentError, isFatal, markFatal } from "./errors";
import { readableError } from "./user-names";
import { describeIssues, validate } from "./schema";
import { agentDefinitionOf } from "./setup-agent";
import type { AgentIdlePredicate } from "./setup-agent-types";
import { bindRun, type CallRecord } from "./run-binding";
import type { MachineVisited } from "./visited";
import type { AgentRequestExecutors, AgentRequest, AgentRunUsage, AgentUsage } from "./types";
import { createActor, hasPendingTimers, observeTransitions, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type StateValue } from "./xstate";

/** A machine snapshot in its persisted (JSON) form: what idle results carry and runs resume from. */
export interface PersistedSnapshot {
  status: "active" | "done" | "error" | "stopped";
  value: StateValue;
  context: any;
  output?: unknown;
  error?: unknown;
  [key: string]: unknown;
}

export interface LegOptions {
  input?: unknown;
  snapshot?: unknown;
  event?: EventObject;
  executors: AgentRequestExecutors;
  signal?: AbortSignal;
  maxModelCalls?: number;
  /** Root-machine transitions, in order (the init of a resumed leg is skipped). */
  onTransition?: (snapshot: AnyMachineSnapshot, event: EventObject) => void;
  /** Called before each executor call. Throw a fatal error to end the run. */
  beforeCall?: (request: AgentRequest) => void;
  afterCall?: (record: CallRecord) => void;
  /** Usage carried over from earlier legs. */
  usage?: AgentRunUsage;
  /** Which snapshots are intentional waits (overrides the machine's setupAgent({ isIdle })). */
  isIdle?: AgentIdlePredicate;
  /** Records the states, transitions and requests of the run (RunTrace.visited, under the harness). */
  visited?: MachineVisited;
  /** Where the user's code started the run (given to the harness with each model call). */
  callSite?: Error;
}

export type LegResult =
  | { status: "done"; output: unknown; snapshot: PersistedSnapshot; usage: AgentRunUsage; live: AnyMachineSnapshot; fatal: false }
  | { status: "idle"; snapshot: PersistedSnapshot; usage: AgentRunUsage; live: AnyMachineSnapshot; fatal: false }
  | { status: "error"; error: unknown; snapshot: PersistedSnapshot; usage: AgentRunUsage; live: AnyMachineSnapshot; fatal: boolean };

/** The default idle rule: the machine is active and none of its invoked actors is still running. */
export function isAgentIdle(snapshot: AnyMachineSnapshot): boolean {
  if (!snapshot || snapshot.status !== "active") return false;
  return Object.values((snapshot.children ?? {}) as Record<string, { getSnapshot(): unknown } | undefined>).every((child) => {
    if (!child) return true;
    return (child.getSnapshot() as { status?: string }).status !== "active";
  });
}

export function emptyUsage(): AgentRunUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 };
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function addUsage(total: AgentRunUsage, usage: AgentUsage | undefined): void {
  if (!usage || typeof usage !== "object") return;
  const input = num(usage.inputTokens);
  const output = num(usage.outputTokens);
  total.inputTokens += input;
  total.outputTokens += output;
  total.totalTokens += usage.totalTokens !== undefined ? num(usage.totalTokens) : input + output;
}

/** Caller mistakes that reject before anything runs. */
export function checkLegOptions(machine: AnyStateMachine, options: { input?: unknown; snapshot?: unknown; executors?: unknown }, api: string): unknown {
  if (!machine || typeof machine !== "object" || typeof (machine as { transition?: unknown }).transition !== "function" || !("root" in machine)) {
    throw new AgentError("not-an-agent-machine", `${api} needs a machine made by agent.createMachine(...) (or an XState machine) as its first argument.`);
  }
  if (options.executors !== undefined && (typeof options.executors !== "object" || options.executors === null)) {
    throw new AgentError("missing-executors", `${api}: executors must be an object such as { generateText, decide } or createAiSdkExecutors({ models }).`);
  }
  if (options.snapshot !== undefined) {
    if (typeof options.snapshot !== "object" || options.snapshot === null || !("value" in options.snapshot)) {
      throw new AgentError("invalid-snapshot", `${api}: snapshot must be the \`snapshot\` of an earlier idle result.`);
    }
    return undefined;
  }
  const definition = agentDefinitionOf(machine);
  const checked = validate(definition?.inputSchema, options.input);
  if (!checked.ok) {
    throw new AgentError(
      "invalid-machine-input",
      `${api}: the machine input does not match the agent's input schema (${describeIssues(checked.issues)}). Pass input matching setupAgent({ input }).`,
    );
  }
  return checked.value;
}

export function runLeg(machine: AnyStateMachine, options: LegOptions): Promise<LegResult> {
  const usage: AgentRunUsage = options.usage ?? emptyUsage();
  const resumed = options.snapshot !== undefined;
  return new Promise<LegResult>((resolve, reject) => {
    let settled = false;
    let fatalError: unknown;
    let idleTimer: ReturnType<typeof setImmediate> | undefined;
    let actor: ReturnType<typeof createActor<AnyStateMachine>>;

    const onTransition = options.onTransition
      ? (snapshot: AnyMachineSnapshot, event: EventObject): void => {
          // A resumed leg's restore and the stop that ends every leg are ours, not the machine's.
          if (event.type === "@xstate.stop" || (resumed && event.type === "@xstate.init")) return;
          try {
            options.onTransition!(snapshot, event);
          } catch (error) {
            // The caller's own callback failed: end the run with that error (never routed by onError).
            fatalError ??= markFatal(error instanceof Error ? error : new Error(String(error)));
          }
        }
      : undefined;

    try {
      actor = createActor(machine, (resumed ? { snapshot: options.snapshot } : { input: options.input }) as never);
      if (onTransition) observeTransitions(actor, onTransition);
      options.visited?.attach(actor);
    } catch (error) {
      reject(resumed ? new AgentError("invalid-snapshot", `The snapshot could not be restored on this machine (${(error as Error)?.message ?? error}).`, { cause: error }) : error);
      return;
    }

    const finish = (result: { status: LegResult["status"]; output?: unknown; error?: unknown; fatal: boolean }): void => {
      if (settled) return;
      settled = true;
      if (idleTimer) clearImmediate(idleTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const live = actor.getSnapshot() as AnyMachineSnapshot;
      let snapshot: PersistedSnapshot;
      try {
        snapshot = actor.getPersistedSnapshot() as unknown as PersistedSnapshot;
      } catch {
        snapshot = { status: live.status, value: live.value, context: live.context } as unknown as PersistedSnapshot;
      }
      subscription?.unsubscribe();
      // A done or errored actor has already stopped itself; only a live (idle, aborted) one needs stopping.
      if (live.status === "active") {
        try {
          actor.stop();
        } catch {
          // stopping a failed actor may throw; the result is already decided
        }
      }
      resolve({ ...result, snapshot, usage, live } as LegResult);
    };

    // The run's error, in the user's names (state paths, not XState ids): the one place a run settles with one.
    const fail = (error: unknown): void => finish({ status: "error", error: readableError(machine, error), fatal: isFatal(error) });

    const onAbort = (): void => fail(markFatal(new AgentError("aborted", "The run was aborted by its signal.")));

    // With a declared rule, a snapshot it names settles idle at once (even with an invoke still
    // pending), and any other snapshot keeps the run going while an invoke or a timer can still move
    // it; once nothing can, the run settles idle anyway rather than hang.
    const predicate = options.isIdle ?? agentDefinitionOf(machine)?.isIdle;
    const isIdle = (snap: AnyMachineSnapshot): boolean => {
      if (!predicate) return isAgentIdle(snap);
      if (snap.status !== "active") return false;
      if (predicate(snap)) return true;
      return isAgentIdle(snap) && !hasPendingTimers(actor);
    };

    const check = (): void => {
      if (settled) return;
      if (fatalError !== undefined) return fail(fatalError);
      const snap = actor.getSnapshot() as AnyMachineSnapshot;
      if (snap.status === "done") {
        const definition = agentDefinitionOf(machine);
        const checked = validate(definition?.outputSchema, snap.output);
        if (!checked.ok) {
          return fail(new AgentError("invalid-machine-output", `The machine finished with an output that does not match the agent's output schema (${describeIssues(checked.issues)}). Fix the final state's output.`));
        }
        return finish({ status: "done", output: checked.value, fatal: false });
      }
      if (snap.status === "error") return fail(snap.error);
      if (snap.status === "active" && !idleTimer && idleNow(snap)) {
        // Re-check after pending callbacks: a child may have finished without the parent having seen it yet.
        idleTimer = setImmediate(() => {
          idleTimer = undefined;
          const again = actor.getSnapshot() as AnyMachineSnapshot;
          if (!settled && again.status === "active" && idleNow(again)) finish({ status: "idle", fatal: false });
          else check();
        });
      }
    };

    /** The idle rule, where a rule that throws ends the run with its error. */
    const idleNow = (snap: AnyMachineSnapshot): boolean => {
      try {
        return isIdle(snap);
      } catch (error) {
        queueMicrotask(() => fail(markFatal(new AgentError("invalid-options", `The isIdle rule threw (${(error as Error)?.message ?? error}); fix setupAgent({ isIdle }) / runAgent({ isIdle }).`, { cause: error }))));
        return false;
      }
    };

    bindRun(actor.system, {
      executors: options.executors,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.callSite ? { callSite: options.callSite } : {}),
      beforeCall(request) {
        if (options.maxModelCalls !== undefined && usage.modelCalls >= options.maxModelCalls) {
          throw markFatal(new AgentError("max-model-calls-exceeded", `The run reached maxModelCalls (${options.maxModelCalls}) before request "${request.name}"; raise maxModelCalls or check for a loop.`, { request: request.name }));
        }
        usage.modelCalls += 1;
        options.visited?.request(request.name);
        options.beforeCall?.(request);
      },
      afterCall(record) {
        addUsage(usage, record.usage);
        options.afterCall?.(record);
      },
      fail(error) {
        fatalError = error;
        // End the run now: the actor error that follows must not be routed by onError.
        queueMicrotask(() => fail(error));
      },
    });

    if (options.signal?.aborted) {
      fatalError = markFatal(new AgentError("aborted", "The run was aborted by its signal before it started."));
    }
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const subscription = actor.subscribe({ next: check, error: (error) => fail(error), complete: check });
    try {
      actor.start();
      if (options.event) {
        const snap = actor.getSnapshot() as AnyMachineSnapshot;
        if (snap.status !== "active" || !snap.can(options.event as never)) {
          settled = true;
          subscription.unsubscribe();
          actor.stop();
          reject(new AgentError("illegal-resume-event", `The resumed machine (state ${JSON.stringify(snap.value)}) does not accept "${options.event.type}" now; send an event the idle state handles.`));
          return;
        }
        actor.send(options.event);
      }
    } catch (error) {
      fail(error);
      return;
    }
    check();
  });
}
