// The toolkit: `falai<Context>().fields({...})` binds the data type; `flow`, `fromSpec`, `action`, `event`,
// `condition` and `agent` are typed against it. `falai()` itself is the same toolkit with no fields (upstream's root).
// A flow is returned as given and checked, with every name against every registry, when the agent is built (as
// upstream: a typo in a flow no agent runs is a type error, not a throw at module load).
import type { Action, ActionCtx, ActionResult, AgentOptions, Condition, EventDef, FieldDefs, Flow, InferData, InferParams, ParamDefs, PredCtx } from "./types";
import { Agent } from "./agent";
import { fromSpec, type FlowSpec } from "./spec";
import { validateFields, validateParams } from "./validate/fields";
import { fail, fnAt, isObject, objectAt, onlyKeys, show } from "./validate/shape";

export interface Falai<C, D, F extends FieldDefs> {
  /** The field definitions, as given. */
  readonly fields: F;
  /** A host action for `do` steps; `params` is typed from `parameters`. */
  action<const P extends ParamDefs>(def: {
    description?: string;
    parameters: P;
    run(params: InferParams<P>, ctx: ActionCtx<C, D>): ActionResult | Promise<ActionResult>;
  }): Action<C, D, InferParams<P>>;
  /** A host event; `P` types its payload. `direction` says whether it counts as the customer or the assistant speaking. */
  event<P = undefined>(def?: { direction?: "inbound" | "outbound" }): EventDef<P>;
  /** A named code predicate that JSON flows may use by name. */
  condition<Arg>(check: (ctx: PredCtx<C, D>, arg: Arg) => boolean): Condition<C, D, Arg>;
  /** The flow, unchanged and typed (checked when an agent is built with it, or by `validateFlow`). */
  flow(def: Flow<C, D>): Flow<C, D>;
  /** A stored JSON flow as a typed flow. */
  fromSpec(spec: FlowSpec): Flow<C, D>;
  agent(options: Omit<AgentOptions<C, D>, "fields">): Agent<C, D>;
}

/** `falai<C>()`: the toolkit with no fields bound (loose data), plus `fields()` to bind them. */
export interface FalaiRoot<C> extends Omit<Falai<C, InferData<FieldDefs>, FieldDefs>, "fields"> {
  fields<const F extends FieldDefs>(defs: F): Falai<C, InferData<F>, F>;
}

function toolkit<C, D, F extends FieldDefs>(fields: F): Falai<C, D, F> {
  return {
    fields,
    action(def) {
      const where = "f.action";
      const a = objectAt(def, where, "the action");
      onlyKeys(a, ["description", "parameters", "run"], where, "an action ({ description?, parameters, run })");
      if (a.description !== undefined && typeof a.description !== "string") fail("bad-option", where, `description is ${show(a.description)}, not text`, "Write description as a string.");
      validateParams(a.parameters, where);
      fnAt(a.run, where, "run");
      return def as unknown as Action<C, D, any>;
    },
    event(def) {
      if (def === undefined) return {};
      const e = objectAt(def, "f.event", "the event");
      onlyKeys(e, ["direction"], "f.event", "an event ({ direction? })");
      if (e.direction !== undefined && e.direction !== "inbound" && e.direction !== "outbound") fail("bad-option", "f.event", `direction is ${show(e.direction)}, which is not one of "inbound", "outbound"`, "Use one of them, or leave it out.");
      return { ...def };
    },
    condition(check) {
      fnAt(check, "f.condition", "the check");
      return { check };
    },
    flow(def) {
      return def;
    },
    fromSpec(spec) {
      const flow = fromSpec<C, D>(spec);
      if (!isObject(flow)) fail("bad-option", "flow", `is ${show(spec)}, not an object`, "Pass the flow itself: { id, name, steps }.");
      return flow;
    },
    agent(options) {
      return new Agent<C, D>({ ...(options as Omit<AgentOptions<C, D>, "fields">), fields } as AgentOptions<C, D>);
    },
  };
}

/** `falai<Context>()`: the generic is the type of the `context` each turn carries (none: `falai()`). */
export function falai<C = undefined>(): FalaiRoot<C> {
  return { ...toolkit<C, InferData<FieldDefs>, FieldDefs>({}), fields: (defs) => toolkit(validateFields(defs) as typeof defs) as never };
}
