// What a turn visited, for agent coverage (issue 27): the steps entered, the way taken out of each (then,
// else, onFail, a branch) and the fields a model call filled. Recorded only under the harness (TurnState
// makes one when a reporter listens); the turn's report carries it (agent.ts), looked up by its result.
import type { FlowExitKind, FlowVisitedReport } from "../../shared/report";
import type { TurnResult } from "../types";

/** The way out of a step a caller of `follow` took, when it is not the step's `then`. */
export type FlowExit = Exclude<FlowExitKind, "branch"> | { branch: number };

export class FlowVisited {
  private readonly steps = new Map<string, { flow: string; step: string }>();
  private readonly exits = new Map<string, FlowVisitedReport["exits"][number]>();
  private readonly fields = new Set<string>();

  step(flow: string, step: string): void {
    const key = `${flow}\n${step}`;
    if (!this.steps.has(key)) this.steps.set(key, { flow, step });
  }

  exit(flow: string, step: string, exit: FlowExit): void {
    const kind: FlowExitKind = typeof exit === "object" ? "branch" : exit;
    const branch = typeof exit === "object" ? exit.branch : undefined;
    const key = `${flow}\n${step}\n${kind}\n${branch ?? ""}`;
    if (!this.exits.has(key)) this.exits.set(key, { flow, step, exit: kind, ...(branch !== undefined ? { branch } : {}) });
  }

  field(name: string): void {
    this.fields.add(name);
  }

  report(started: ReadonlyArray<{ flowId: string }>): FlowVisitedReport {
    return { flows: [...new Set(started.map((s) => s.flowId))], steps: [...this.steps.values()], exits: [...this.exits.values()], fields: [...this.fields] };
  }
}

const byResult = new WeakMap<object, FlowVisited>();

export function keepVisited(result: TurnResult<any>, visited: FlowVisited | undefined): void {
  if (visited) byResult.set(result, visited);
}

export function visitedOf(result: TurnResult<any>): FlowVisited | undefined {
  return byResult.get(result);
}
