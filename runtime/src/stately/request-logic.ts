// The actor logic behind every request: an async actor that builds the request from its input, asks
// the run's executor, validates the answer and outputs `{ result, messages }` (decisions also deliver
// the chosen event to the invoking machine).
import { AgentError, isFatal } from "./errors";
import { buildRequest, performRequest } from "./execute";
import { attachSpec, type RequestSpec } from "./request-spec";
import { runBindingOf } from "./run-binding";
import type { AgentRequest, AgentTextResult } from "./types";
import { acceptedEventTypes, createAsyncLogic, parentOf, type AnyMachineSnapshot, type AsyncActorLogic } from "./xstate";

/** Actor logic of a request: input in, `{ result, messages }` out. */
export type AgentRequestLogic<TInput = unknown, TResult = unknown> = AsyncActorLogic<AgentTextResult<TResult>, TInput>;

export function createRequestLogic<TInput, TResult>(spec: RequestSpec): AgentRequestLogic<TInput, TResult> {
  const logic = createAsyncLogic({
    run: async ({ input, self, system, signal }: { input: TInput; self: { id: string }; system: unknown; signal: AbortSignal }) => {
      const binding = runBindingOf(system as never);
      if (!binding) {
        throw new AgentError(
          "missing-executors",
          `Request ${spec.name ? `"${spec.name}"` : `(invoke "${self.id}")`} ran outside runAgent; run the machine with runAgent(machine, { input, executors }) (or runSeam / simulateAgent).`,
        );
      }
      const parent = parentOf(self);
      const acceptedEvents = spec.kind === "decision" && parent ? acceptedEventTypes(parent.getSnapshot() as AnyMachineSnapshot) : undefined;
      let request: AgentRequest | undefined;
      try {
        request = buildRequest(spec, input, { invokeId: self.id, signal, ...(acceptedEvents ? { acceptedEvents } : {}) });
        binding.beforeCall(request);
        const performed = await performRequest(request, binding.executors);
        binding.afterCall({ request, ...(performed.usage ? { usage: performed.usage } : {}) });
        if (performed.event && parent) {
          const snapshot = parent.getSnapshot() as AnyMachineSnapshot;
          if (!snapshot.can(performed.event as never)) {
            throw new AgentError(
              "decision-not-accepted",
              `Decision "${request.name}" chose "${performed.event.type}", but the machine no longer accepts it (a guard refused it or the state changed).`,
              { request: request.name },
            );
          }
          parent.send(performed.event);
        }
        return performed.output as AgentTextResult<TResult>;
      } catch (error) {
        if (isFatal(error)) binding.fail(error);
        else if (request) binding.afterCall({ request, error });
        throw error;
      }
    },
  });
  return attachSpec(logic as unknown as AgentRequestLogic<TInput, TResult>, spec);
}
