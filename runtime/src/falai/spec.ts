// Flows as JSON (FlowSpec): each step carries a `kind`, predicates are ConditionSpecs, `null` means "not set".
// fromSpec / toSpec convert; flowSpecSchema describes a FlowSpec to a model that writes one.
import type { ActionMap, ConditionMap, ConditionSpec, EventMap, FieldDefs, Flow, Instruction, Next, ParamDefs, Repeat, ScalarDef, StructuredSchema, Template } from "./types";
import { bodyKinds, stepKind, type StepKind } from "./steps";
import { fail, isObject, listAt, show } from "./validate/shape";

/** What a flow is checked against (validate/flow.ts) and what its JSON schema names (flowSpecSchema). */
export interface Registries {
  fields: FieldDefs;
  actions?: ActionMap<any, any>;
  events?: EventMap;
  conditions?: ConditionMap<any, any>;
  tools?: ReadonlyArray<{ id: string }>;
  /** With flows, a literal `{ flow }` target must name one of them. */
  flows?: ReadonlyArray<{ id: string }>;
}

export type InstructionSpec = Omit<Instruction, "if"> & { if?: ConditionSpec };
export type BranchSpec = { then: Next } & ({ when: string | string[] } | { if: ConditionSpec });
export type TriggerSpec = { repeat?: Repeat } & (
  | { message: string[]; if?: ConditionSpec }
  | { mention: string[]; extract?: ParamDefs; if?: ConditionSpec }
  | { silence: string; if?: ConditionSpec; businessHours?: boolean }
  | { event: string; if?: ConditionSpec; after?: string; businessHours?: boolean }
);
interface StepSpecBase {
  id: string;
  label?: string;
  then?: Next;
  ui?: Record<string, unknown>;
}
interface TalkSpecFields {
  ask?: Record<string, string>;
  maxAsks?: number;
  branches?: BranchSpec[];
  tools?: string[];
  instructions?: InstructionSpec[];
}
export type StepSpec = StepSpecBase &
  (
    | ({ kind: "prompt"; prompt: Template } & TalkSpecFields)
    | ({ kind: "collect"; collect: string[]; prompt?: Template; question?: Template } & TalkSpecFields)
    | { kind: "say"; say: Template; media?: { slug: string }; once?: boolean }
    | { kind: "do"; do: string; with?: Record<string, unknown>; onFail?: Next }
    | { kind: "wait"; wait: string; businessHours?: boolean; else?: Next; branches?: BranchSpec[] }
    | { kind: "waitEvent"; wait: { event: string; upTo?: string }; else?: Next }
    | { kind: "if"; if: ConditionSpec; else?: Next }
  );
export interface FlowSpec {
  id: string;
  name: string;
  description?: string;
  on?: TriggerSpec[];
  anchor?: string;
  while?: ConditionSpec;
  collect?: string[];
  clearOnStart?: string[];
  steps: StepSpec[];
  onEnd?: "end" | "stay" | "reset";
  instructions?: InstructionSpec[];
  tools?: string[];
}

/** A copy with every `null` dropped, at any depth (`null` means "not set" in a FlowSpec). */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, stripNulls(v)]));
  return value;
}

/** A stored JSON flow as a typed flow: nulls dropped, `kind` removed, its shape checked (names are checked when the agent is built). */
export function fromSpec<C = unknown, D = unknown>(spec: FlowSpec): Flow<C, D> {
  const flow = stripNulls(spec);
  if (!isObject(flow)) fail("bad-option", "flow", `is ${show(spec)}, not an object`, "Pass the flow itself: { id, name, steps }.");
  const where = typeof flow.id === "string" ? `flow "${flow.id}"` : "flow";
  const steps = listAt(flow.steps, where, "steps", "Write steps as a list, even an empty one.");
  flow.steps = steps.map((step, i) => {
    if (!isObject(step)) fail("bad-option", where, `steps[${i}] is ${show(step)}, not an object`, "Write each entry of steps as an object.");
    const { kind, ...body } = step;
    const kinds = bodyKinds(body);
    if (kinds.length === 1 && kind !== undefined && kind !== kinds[0] && !(kind === "collect" && kinds[0] === "prompt")) {
      fail("bad-option", `${where}, step "${String(step.id)}"`, `has kind ${show(kind)}, but its body is a "${kinds[0]}" step`, `Set kind to "${kinds[0]}", or change the body to match.`);
    }
    return body;
  });
  return flow as unknown as Flow<C, D>;
}

/** Upstream's wording: `flow "x", step "s" if: is a function` (the place, then the key, then what is wrong). */
function noFunction(value: unknown, where: string, name: string): void {
  if (typeof value === "function") fail("bad-option", `${where} ${name}`, "is a function, which cannot be stored as JSON", "Write it as a condition ({ equals }, { known }, { silenced } or a named condition) to store this flow.");
}

/** A spec's `kind`: a step with a `collect` list is a collect step even when the list is empty (so it round-trips). */
const specKind = (step: Record<string, unknown>): StepKind => (step.collect !== undefined ? "collect" : stepKind(step as never));

/** A typed flow as JSON: every step gets its `kind`; a function predicate anywhere throws. */
export function toSpec(flow: Flow<any, any>): FlowSpec {
  const where = `flow "${flow.id}"`;
  noFunction(flow.while, where, "while");
  (flow.on ?? []).forEach((t, i) => noFunction((t as { if?: unknown }).if, `${where}, trigger #${i + 1}`, "if"));
  (flow.instructions ?? []).forEach((ins, i) => noFunction(ins.if, where, `instructions[${i}].if`));
  const steps = flow.steps.map((step) => {
    const at = `${where}, step "${step.id}"`;
    const kinds = bodyKinds(step as unknown as Record<string, unknown>);
    if (kinds.length === 0) fail("bad-option", at, "has neither prompt nor collect", "A talk step needs a guideline, fields to collect, or both.");
    const s = step as unknown as Record<string, unknown>;
    noFunction(s.if, at, "if");
    ((s.branches as Array<{ if?: unknown }> | undefined) ?? []).forEach((b, i) => noFunction(b.if, at, `branches[${i}].if`));
    ((s.instructions as Array<{ if?: unknown }> | undefined) ?? []).forEach((ins, i) => noFunction(ins.if, at, `instructions[${i}].if`));
    const { id, ...rest } = s;
    return JSON.parse(JSON.stringify({ id, kind: specKind(s), ...rest })) as StepSpec;
  });
  return JSON.parse(JSON.stringify({ ...flow, steps })) as FlowSpec;
}

// ---------------------------------------------------------------------------------------------------
// flowSpecSchema

/**
 * `s` or null, in the form OpenAI's strict structured output accepts: `type: [T, "null"]` (an enum gets `null` among
 * its values), an `anyOf` gets a `{ type: "null" }` branch. Every property stays in `required` (see `closed`).
 */
function nullable(s: StructuredSchema): StructuredSchema {
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: [...s.anyOf, { type: "null" }] };
  if (typeof s.type === "string") return { ...s, type: [s.type, "null"], ...(s.enum ? { enum: [...s.enum, null] } : {}) };
  return { anyOf: [s, { type: "null" }] };
}
const closed = (properties: Record<string, StructuredSchema>): StructuredSchema => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });
const str: StructuredSchema = { type: "string" };
const list = (items: StructuredSchema): StructuredSchema => ({ type: "array", items });

function scalarSchema(def: ScalarDef): StructuredSchema {
  return { type: def.type === "integer" ? "integer" : def.type, ...(def.enum ? { enum: def.enum } : {}), ...(def.description ? { description: def.description } : {}) };
}

/**
 * A strict JSON schema for a FlowSpec naming only this agent's fields, actions, events and conditions: every object
 * closed (`additionalProperties: false`) with every property required, optional ones nullable (null = not set).
 */
export function flowSpecSchema(registries: Registries): StructuredSchema {
  const slugs = Object.keys(registries.fields);
  const events = Object.keys(registries.events ?? {});
  const conditionNames = Object.keys(registries.conditions ?? {});
  const fieldList: StructuredSchema = list(slugs.length ? { type: "string", enum: slugs } : str);
  const conditionArg: StructuredSchema = { anyOf: [str, { type: "number" }, { type: "boolean" }, list(str)] };
  const condition = closed({
    equals: nullable(closed(Object.fromEntries(slugs.map((s) => [s, nullable(scalarSchema(registries.fields[s]!))])))),
    known: nullable(fieldList),
    silenced: nullable({ type: "boolean" }),
    ...Object.fromEntries(conditionNames.map((n) => [n, nullable(conditionArg)])),
  });
  const next: StructuredSchema = { anyOf: [str, closed({ step: str, clear: nullable(fieldList) }), closed({ flow: str })] };
  const base = { id: str, label: nullable(str), then: nullable(next) };
  const branch = closed({ when: nullable(str), if: nullable(condition), then: next });
  const variants: StructuredSchema[] = [
    closed({ ...base, kind: { type: "string", enum: ["prompt"] }, prompt: str, maxAsks: nullable({ type: "integer" }), branches: nullable(list(branch)) }),
    closed({ ...base, kind: { type: "string", enum: ["say"] }, say: str, once: nullable({ type: "boolean" }) }),
    closed({ ...base, kind: { type: "string", enum: ["wait"] }, wait: str, else: nullable(next) }),
    closed({ ...base, kind: { type: "string", enum: ["if"] }, if: condition, else: nullable(next) }),
  ];
  if (slugs.length) variants.push(closed({ ...base, kind: { type: "string", enum: ["collect"] }, collect: fieldList, prompt: nullable(str), question: nullable(str), maxAsks: nullable({ type: "integer" }), branches: nullable(list(branch)) }));
  if (events.length) variants.push(closed({ ...base, kind: { type: "string", enum: ["waitEvent"] }, wait: closed({ event: { type: "string", enum: events }, upTo: nullable(str) }), else: nullable(next) }));
  for (const [name, action] of Object.entries(registries.actions ?? {})) {
    const params = Object.fromEntries(Object.entries(action.parameters).map(([p, def]) => [p, def.type === "array" ? list(scalarSchema(def.items)) : def.optional ? nullable(scalarSchema(def)) : scalarSchema(def)]));
    variants.push(closed({ ...base, kind: { type: "string", enum: ["do"] }, do: { type: "string", enum: [name] }, with: closed(params), onFail: nullable(next) }));
  }
  const triggers: StructuredSchema[] = [
    closed({ message: list(str), if: nullable(condition), repeat: nullable(str) }),
    closed({ mention: list(str), if: nullable(condition), repeat: nullable(str) }),
    closed({ silence: str, if: nullable(condition), repeat: nullable(str) }),
  ];
  if (events.length) triggers.push(closed({ event: { type: "string", enum: events }, after: nullable(str), if: nullable(condition), repeat: nullable(str) }));
  const instruction = closed({ kind: nullable({ type: "string", enum: ["must", "never", "should"] }), when: nullable(str), if: nullable(condition), prompt: str });
  return closed({
    id: str,
    name: str,
    description: nullable(str),
    on: nullable(list({ anyOf: triggers })),
    anchor: nullable(str),
    while: nullable(condition),
    collect: nullable(fieldList),
    clearOnStart: nullable(fieldList),
    steps: list({ anyOf: variants }),
    onEnd: nullable({ type: "string", enum: ["end", "stay", "reset"] }),
    instructions: nullable(list(instruction)),
  });
}
