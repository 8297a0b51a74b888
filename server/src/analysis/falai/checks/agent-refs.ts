// The checks of names an agent must register (tools, actions, events, conditions, flows): for each agent
// of this file whose registry of that kind is statically known, every name its flows use must be in it.
// A name in a flow of this file is reported where it is written (with the nearest name as a fix); a
// flow from another file is reported at the place this agent's `flows` names it.
import type { Finding, FindingCode } from "../../types";
import type { AgentFlowEntry, AgentModel, FalaiFileModel, FlowModel, StepModel, Str } from "../model";
import { keepShape } from "../../util/shapes";
import { didYouMean, finding, nearestFix } from "./finding";

/** What a check of agent references asks of its kind of name. Rules are made once, at module load, and
 *  uses are reported to an object's method, not to closures made per call (util/shapes.ts). */
export interface AgentRefRule {
  code: FindingCode;
  /** "tool", "action", ... for messages. */
  what: string;
  /** The names the agent registers, or undefined when they cannot all be known. */
  registered(agent: AgentModel): string[] | undefined;
  /** Reports each name a flow uses to `uses.use`, with where it is (a message phrase, built only when
   *  needed). */
  forEachUse(flow: FlowModel, uses: RefUses): void;
}

export interface RefUses {
  use(ref: Str, where: () => string): void;
}

export function checkAgentRefs(model: FalaiFileModel, rule: AgentRefRule): Finding[] {
  const out: Finding[] = [];
  for (const agent of model.agents) {
    const names = rule.registered(agent);
    if (!names) continue;
    const uses = new AgentRefUses(model, rule, agent, names, out);
    for (const entry of agent.flows) {
      uses.entry = entry;
      rule.forEachUse(entry.flow, uses);
    }
  }
  return out;
}

/** The uses of one agent's flows, checked against the names it registers. */
class AgentRefUses implements RefUses {
  private readonly known: Set<string>;
  private readonly who: string;
  entry!: AgentFlowEntry;

  constructor(
    private readonly model: FalaiFileModel,
    private readonly rule: AgentRefRule,
    agent: AgentModel,
    private readonly names: string[],
    private readonly out: Finding[],
  ) {
    this.known = new Set(names);
    this.who = agent.name ? `agent '${agent.name}'` : "this agent";
  }

  use(ref: Str, where: () => string): void {
    if (this.known.has(ref.text) || ref.unterminated) return;
    const { model, rule, entry, who } = this;
    if (entry.flow.file === model.file) {
      const { fix, suggestion } = nearestFix(model.file, ref, this.names);
      this.out.push(finding(rule.code, `${where()} names ${rule.what} '${ref.text}', which ${who} does not have.${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
    } else {
      const flowName = entry.flow.id ? `'${entry.flow.id.text}'` : "included";
      this.out.push(finding(rule.code, `Flow ${flowName}: ${where()} names ${rule.what} '${ref.text}', which ${who} does not have.`, model.file, entry.refRange));
    }
  }
}

/** A step as named in messages. */
export function stepName(step: StepModel): string {
  return step.id ? `Step '${step.id.text}'` : `Step #${step.index + 1}`;
}

/** A flow as named in messages. */
export function flowName(flow: FlowModel): string {
  return `Flow '${flow.id?.text ?? "?"}'`;
}

/** The names a registry holds, when all are known. */
export function namesOf(registry: { entries: Array<{ name: string }>; complete: boolean }): string[] | undefined {
  return registry.complete ? registry.entries.map((e) => e.name) : undefined;
}

// Kept so the class's map outlives each analysis (util/shapes.ts); it holds no user data.
keepShape(new AgentRefUses({ agents: [] } as unknown as FalaiFileModel, { code: "unknown-tool", what: "", registered: () => undefined, forEachUse: () => undefined }, { name: undefined } as unknown as AgentModel, [], []));
