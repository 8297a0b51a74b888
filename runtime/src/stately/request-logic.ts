// The actor logic behind every request: an async actor that builds the request from its input, asks
// the run's executor, validates the answer and outputs `{ result, messages }` (decisions also deliver
// the chosen event to the invoking machine).
import { AgentError, isFatal } from "./errors";
import { buildRequest, performRequest } from "./execute";
import { attachSpec, type RequestSpec } from "./request-spec";
import { providedBindingOf, runBindingOf } from "./run-binding";
import { attemptFailure, DECISION_RETRIES, exhausted, guardRejected } from "./decision-retry";
import type { AgentDecisionAttempt, AgentDecisionRequest, AgentRequest, AgentTextResult } from "./types";
import { acceptedEventTypes, createAsyncLogic, parentOf, type AnyMachineSnapshot, type AsyncActorLogic, type EventObject } from "./xstate";

/** Actor logic of a request: input in, `{ result, messages }` out. */
export type AgentRequestLogic<TInput = unknown, TResult = unknown> = AsyncActorLogic<AgentTextResult<TResult>, TInput>;

export function createRequestLogic<TInput, TResult>(spec: RequestSpec): AgentRequestLogic<TInput, TResult> {
  const logic = createAsyncLogic({
    run: async ({ input, self, system, signal }: { input: TInput; self: { id: string }; system: unknown; signal: AbortSignal }) => {
      const parent = parentOf(self);
      // runAgent's binding on the actor system, else the executors provideExecutors gave the invoking machine.
      const binding = runBindingOf(system as never) ?? providedBindingOf((parent as { logic?: unknown } | undefined)?.logic);
      if (!binding) {
        throw new AgentError(
          "missing-executors",
          `Request ${spec.name ? `"${spec.name}"` : `(invoke "${self.id}")`} ran outside runAgent; run the machine with runAgent(machine, { input, executors }) (or runSeam / simulateAgent), or give it executors with provideExecutors(machine, executors) to run it with createActor.`,
        );
      }
      const acceptedEvents = spec.kind === "decision" && parent ? acceptedEventTypes(parent.getSnapshot() as AnyMachineSnapshot) : undefined;
      let request: AgentRequest | undefined;
      const attempts: AgentDecisionAttempt[] = [];
      for (;;) {
        let recorded = false;
        let chosen: EventObject | undefined;
        try {
          request ??= buildRequest(spec, input, { invokeId: self.id, signal, ...(acceptedEvents ? { acceptedEvents } : {}) });
          binding.beforeCall(request);
          const performed = await performRequest(request, binding.executors, binding.callSite);
          binding.afterCall({ request, ...(performed.usage ? { usage: performed.usage } : {}) });
          recorded = true;
          chosen = performed.event;
          if (chosen && parent) {
            if (!(parent.getSnapshot() as AnyMachineSnapshot).can(chosen as never)) throw guardRejected(request as AgentDecisionRequest, chosen);
            parent.send(chosen);
          }
          return performed.output as AgentTextResult<TResult>;
        } catch (error) {
          if (isFatal(error)) binding.fail(error);
          else if (request && !recorded) binding.afterCall({ request, error });
          const failure = attemptFailure(error);
          if (!failure || request?.kind !== "decision") throw error;
          const event = chosen ?? (error as { event?: EventObject }).event;
          attempts.push({ ...(event ? { event } : {}), failure, message: (error as Error).message });
          if (attempts.length > DECISION_RETRIES) throw exhausted(request, attempts);
          request = { ...request, attempts: [...attempts] };
        }
      }
    },
  });
  return attachSpec(logic as unknown as AgentRequestLogic<TInput, TResult>, spec);
}
