// Static facts about an agent machine, read from the artifact without running it: its requests
// (name, model, kind, schemas) and its states. Used to check seam options up front and by tooling.
import { agentDefinitionOf } from "../setup-agent";
import { requestSpecOf, type RequestSpec } from "../request-spec";
import { stateTree, type AnyStateMachine, type StateNodeView, type StandardSchemaV1 } from "../xstate";

export interface MachineRequestInfo {
  /** The name scripts and seams use (undefined for an inline agent.decide whose name comes from its input). */
  name: string | undefined;
  /** The invoke id (what the name falls back to). */
  invokeId: string;
  kind: "text" | "decision";
  model: string | undefined;
  /** Where the request's definition lives. */
  origin: "requests" | "logic" | "inline-decide";
  /** The dotted path of the state that invokes it. */
  state: string;
  inputSchema?: StandardSchemaV1;
  outputSchema?: StandardSchemaV1;
  spec: RequestSpec;
}

export interface MachineInfo {
  requests: MachineRequestInfo[];
  /** Every state's dotted path ("" excluded). */
  states: string[];
  /** False when some invoke's logic cannot be resolved statically (then key checks are skipped). */
  complete: boolean;
}

const cache = new WeakMap<AnyStateMachine, MachineInfo>();

/** The machine's facts, read once per machine value (machines are immutable artifacts). */
export function machineInfo(machine: AnyStateMachine): MachineInfo {
  let info = cache.get(machine);
  if (!info) {
    info = readMachineInfo(machine);
    cache.set(machine, info);
  }
  return info;
}

function readMachineInfo(machine: AnyStateMachine): MachineInfo {
  const definition = agentDefinitionOf(machine);
  const requests: MachineRequestInfo[] = [];
  const states: string[] = [];
  let complete = true;
  const walk = (node: StateNodeView): void => {
    if (node.path) states.push(node.path);
    for (const invoke of node.invokes) {
      const spec = requestSpecOf(invoke.logic) ?? (invoke.keyed ? definition?.requests[invoke.src] : undefined);
      if (!invoke.logic) complete = false;
      if (!spec) continue;
      const origin = spec.inline ? "inline-decide" : definition?.requests[invoke.src] === spec || (invoke.keyed && definition?.requests[invoke.src]) ? "requests" : "logic";
      requests.push({
        name: spec.inline ? undefined : spec.name ?? invoke.id,
        invokeId: invoke.id,
        kind: spec.kind,
        model: spec.model,
        origin,
        state: node.path,
        ...(spec.inputSchema ? { inputSchema: spec.inputSchema } : {}),
        ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
        spec,
      });
    }
    node.children.forEach(walk);
  };
  walk(stateTree(machine));
  return { requests, states, complete };
}
