// provideExecutors(machine, executors): a copy of an agent machine that carries its executors, so a plain XState
// `createActor(machine, { input })` runs its requests (upstream's name). runAgent / runSeam still bind their own
// executors per run and win over these. No budgets, usage or event log: those are runAgent's.
import { AgentError } from "./errors";
import { provideBinding } from "./run-binding";
import { agentDefinitionOf } from "./setup-agent";
import type { AgentRequestExecutors } from "./types";
import type { AnyStateMachine } from "./xstate";

export function provideExecutors<TMachine extends AnyStateMachine>(machine: TMachine, executors: AgentRequestExecutors): TMachine {
  if (!agentDefinitionOf(machine)) {
    throw new AgentError("not-an-agent-machine", "provideExecutors needs a machine made by setupAgent(...).createMachine(...).");
  }
  if (typeof executors !== "object" || executors === null) {
    throw new AgentError("invalid-options", "provideExecutors needs executors: { generateText?, decide? }.");
  }
  const copy = machine.provide({}) as TMachine;
  provideBinding(copy, executors);
  return copy;
}
