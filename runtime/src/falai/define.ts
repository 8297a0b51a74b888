// The toolkit: `falai<Context>().fields({...})` binds the data type; `flow`, `fromSpec`, `action`, `event`,
// `condition` and `agent` are typed against it. Definitions are checked when built: a flow's shape and field names
// by `f.flow`, every name against every registry by `f.agent`.
import type { Action, ActionCtx, ActionResult, AgentOptions, Condition, EventDef, FieldDefs, Flow, InferData, InferParams, ParamDefs, PredCtx } from "./types";
import { Agent } from "./agent";
import { fromSpec, type FlowSpec } from "./spec";
import { validateFields, validateParams } from "./validate/fields";
import { checkFlow } from "./validate/flow";
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
  /** The flow, unchanged and typed (its shape and field names are checked now). */
  flow(def: Flow<C, D>): Flow<C, D>;
  /** A stored JSON flow as a typed flow. */
  fromSpec(spec: FlowSpec): Flow<C, D>;
  agent(options: Omit<AgentOptions<C, D>, "fields">): Agent<C, D>;
}

export interface FalaiRoot<C> {
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
      checkFlow(def, { fields }, true);
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
  return { fields: (defs) => toolkit(validateFields(defs) as typeof defs) as never };
}
