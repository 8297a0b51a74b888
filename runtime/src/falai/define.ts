// The definition surface: falai().fields({...}) → a builder with flow, agent, action and tool.
// Definitions are validated when built, so a typo fails at start-up with a DefinitionError and a code.
import type { ActionDef, ActionHandler, AgentOptions, Branch, DataFromFields, FieldsSpec, Flow, FlowDef, ToolDef, ToolSpec } from "./types";
import { DefinitionError } from "./errors";
import { tryParseDuration } from "./duration";
import { Agent } from "./agent";

const FIELD_TYPES = new Set(["string", "number", "boolean", "enum"]);

export interface FalaiBuilder<F extends FieldsSpec> {
  /** The field declarations, as given. */
  readonly fields: F;
  /** A flow: triggers in `on`, steps in order. Step ids in `else` / `goto` are checked by the compiler. */
  flow<const S extends string>(def: FlowDef<F, S>): Flow<F>;
  agent(options: AgentOptions<F>): Agent<F>;
  /** A named action for `do` steps: `f.action("crm", handler)` or `f.action({ name: "crm", handler })`. */
  action<const N extends string>(name: N, handler: ActionHandler<DataFromFields<F>>): ActionDef<DataFromFields<F>, N>;
  action<const N extends string>(def: { name: N; handler: ActionHandler<DataFromFields<F>> }): ActionDef<DataFromFields<F>, N>;
  /**
   * A named tool for `tools` on steps: `f.tool({ name, description, parameters, run })` or
   * `f.tool(name, { description, parameters, run })`. `parameters`: a zod schema, a Standard Schema, or a JSON schema.
   */
  tool<Args = any>(def: ToolDef<DataFromFields<F>, Args>): ToolDef<DataFromFields<F>, Args>;
  tool<Args = any>(name: string, spec: ToolSpec<DataFromFields<F>, Args>): ToolDef<DataFromFields<F>, Args>;
}

export interface Falai {
  fields<const F extends FieldsSpec>(fields: F): FalaiBuilder<F>;
}

export function falai(): Falai {
  return { fields: (fields) => builder(validateFields(fields)) };
}

function validateFields<F extends FieldsSpec>(fields: F): F {
  if (!fields || typeof fields !== "object") throw new DefinitionError("bad-field-type", "fields({...}) needs an object of field declarations.");
  for (const [name, spec] of Object.entries(fields)) {
    if (!spec || !FIELD_TYPES.has(spec.type)) {
      throw new DefinitionError("bad-field-type", `Field "${name}": type ${JSON.stringify(spec?.type)} is not one of string, number, boolean, enum.`);
    }
    if (spec.type === "enum" && (!Array.isArray(spec.values) || spec.values.length === 0 || spec.values.some((v) => typeof v !== "string"))) {
      throw new DefinitionError("bad-field-type", `Field "${name}": an enum needs \`values\`, a non-empty list of strings.`);
    }
  }
  return fields;
}

function builder<F extends FieldsSpec>(fields: F): FalaiBuilder<F> {
  return {
    fields,
    flow: (def) => validateFlow(fields, def),
    agent: (options) => new Agent<F>(fields, options),
    action: (nameOrDef: string | { name: string; handler: ActionHandler<DataFromFields<F>> }, maybeHandler?: ActionHandler<DataFromFields<F>>) => {
      const name = typeof nameOrDef === "string" ? nameOrDef : nameOrDef?.name;
      const handler = typeof nameOrDef === "string" ? maybeHandler : nameOrDef?.handler;
      if (typeof name !== "string" || !name) throw new DefinitionError("bad-option", "f.action(name, handler) needs a name.");
      if (typeof handler !== "function") throw new DefinitionError("bad-option", `Action "${name}": the handler is not a function.`);
      return { kind: "action", name, handler } as ActionDef<DataFromFields<F>, any>;
    },
    tool: (nameOrDef: string | ToolDef<DataFromFields<F>>, spec?: ToolSpec<DataFromFields<F>>) => {
      const def = typeof nameOrDef === "string" ? { ...spec!, name: nameOrDef } : nameOrDef;
      if (!def || typeof def.name !== "string" || !def.name) throw new DefinitionError("bad-option", "f.tool({ name, description, parameters, run }) needs a name.");
      if (typeof def.run !== "function") throw new DefinitionError("bad-option", `Tool "${def.name}": run is not a function.`);
      return { ...def, kind: "tool" };
    },
  };
}

function validateFlow<F extends FieldsSpec, S extends string>(fields: F, def: FlowDef<F, S>): Flow<F> {
  const where = `Flow "${String(def?.id)}"`;
  if (!def || typeof def.id !== "string" || !def.id) throw new DefinitionError("bad-option", "f.flow({ id, name, on, steps }) needs an id.");
  if (!Array.isArray(def.steps) || def.steps.length === 0) throw new DefinitionError("empty-flow", `${where} has no steps.`);
  const ids = new Set<string>();
  for (const step of def.steps) {
    if (!step || typeof step.id !== "string" || !step.id) throw new DefinitionError("bad-option", `${where}: every step needs an id.`);
    if (ids.has(step.id)) throw new DefinitionError("duplicate-step", `${where}: two steps are named "${step.id}".`);
    ids.add(step.id);
  }
  const target = (t: string, what: string) => {
    if (t !== "end" && !ids.has(t)) throw new DefinitionError("unknown-step", `${where}, ${what}: "${t}" is no step of this flow (nor "end").`);
  };
  for (const step of def.steps) {
    const at = `step "${step.id}"`;
    for (const field of step.collect ?? []) {
      if (!Object.hasOwn(fields, field)) throw new DefinitionError("unknown-field", `${where}, ${at}: collect names "${field}", which fields({...}) does not declare.`);
    }
    if (step.wait !== undefined && tryParseDuration(step.wait) === undefined) {
      throw new DefinitionError("bad-duration", `${where}, ${at}: wait ${JSON.stringify(step.wait)} is not a duration.`);
    }
    if (step.else !== undefined) target(step.else, `${at} else`);
    const branches: readonly (Branch<string> | undefined)[] = step.branches ?? [];
    branches.forEach((b, i) => {
      if (!b || (b.when !== undefined && typeof b.when !== "string")) throw new DefinitionError("bad-option", `${where}, ${at}: a branch's \`when\` is a sentence about the customer's message.`);
      if (b.when === undefined && i !== branches.length - 1) throw new DefinitionError("bad-option", `${where}, ${at}: a branch without \`when\` (the "otherwise" branch) must be the last one.`);
      target(b.goto, `${at} branch goto`);
    });
  }
  for (const trigger of def.on ?? []) {
    if ("message" in trigger) {
      if (!Array.isArray(trigger.message)) throw new DefinitionError("bad-trigger", `${where}: a message trigger needs a list (empty for a catch-all).`);
    } else if ("silence" in trigger) {
      if (tryParseDuration(trigger.silence) === undefined) throw new DefinitionError("bad-duration", `${where}: silence ${JSON.stringify(trigger.silence)} is not a duration.`);
    } else if ("mention" in trigger) {
      const m = trigger.mention as unknown;
      if (!(typeof m === "string" && m) && !(Array.isArray(m) && m.length && m.every((x) => typeof x === "string"))) {
        throw new DefinitionError("bad-trigger", `${where}: a mention trigger needs \`mention\`, a description (or a list of them).`);
      }
      for (const field of trigger.extract ?? []) {
        if (!Object.hasOwn(fields, field)) throw new DefinitionError("unknown-field", `${where}: mention extract names "${field}", which fields({...}) does not declare.`);
      }
    } else {
      throw new DefinitionError("bad-trigger", `${where}: a trigger is { message: [...] }, { silence: "24h" } or { mention: "...", extract?: [...] }.`);
    }
  }
  return {
    kind: "flow",
    id: def.id,
    name: def.name ?? def.id,
    ...(def.description !== undefined ? { description: def.description } : {}),
    on: def.on ?? [],
    steps: def.steps,
  };
}
