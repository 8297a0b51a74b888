// From the model to what the language features consume, per agent, machine and eval call: symbols (with
// hover summaries), references (with completion candidates), code lenses and machine graphs, each made by
// its own file (symbols.ts, references.ts, lenses.ts, graphs.ts; Outputs in output-parts.ts).
import { machineGraph } from "./graphs";
import { exploreLens, requestLenses, runSeamCallLens } from "./lenses";
import type { AgentDef, EvalCall, MachineDef } from "./model";
import type { Outputs } from "./output-parts";
import { evalReferences, machineReferences } from "./references";
import { agentSymbols, machineSymbols } from "./symbols";

/** An agent's symbols, and a Run seam lens on each of its requests (under the machines given). */
export function agentOutputs(agent: AgentDef, machinesOfAgent: MachineDef[], out: Outputs): void {
  agentSymbols(agent, out);
  for (const request of agent.requests.values()) requestLenses(request, machinesOfAgent, out);
}

/** A machine's symbols, its Explore paths lens, its references and its graph. */
export function machineOutputs(machine: MachineDef, out: Outputs): void {
  machineSymbols(machine, out);
  exploreLens(machine, out);
  machineReferences(machine, out);
  out.graphs.push(machineGraph(machine));
}

/** An eval call's references, and a Run seam lens on a runSeam call. */
export function evalOutputs(call: EvalCall, out: Outputs): void {
  evalReferences(call, out);
  runSeamCallLens(call, out);
}
