// A `do` step's `with` against its action's parameters: checked strictly when the agent is built (values are never
// coerced; a string holding `{{` is only known at run time, so it passes for any string or enum parameter).
import type { ParamDefs, ScalarDef } from "../types";
import { fail, show } from "./shape";

const isTemplate = (v: unknown): boolean => typeof v === "string" && v.includes("{{");

function scalarOk(def: ScalarDef, value: unknown): boolean {
  if (isTemplate(value)) return def.type === "string" || def.enum !== undefined;
  const typed = def.type === "string" ? typeof value === "string" : def.type === "boolean" ? typeof value === "boolean" : typeof value === "number" && Number.isFinite(value) && (def.type === "number" || Number.isInteger(value));
  return typed && (!def.enum || def.enum.includes(value as string | number));
}

/** The JSON kind of a value, the stable part of the message (upstream's wording); the value itself follows it. */
const kindOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function describe(def: ScalarDef): string {
  return def.enum ? `one of ${def.enum.map((v) => show(v)).join(", ")}` : `a ${def.type}`;
}

export function validateWith(args: Record<string, unknown>, params: ParamDefs, action: string, where: string): void {
  for (const key of Object.keys(args)) {
    if (!(key in params)) fail("bad-parameter", where, `action "${action}" has no parameter "${key}"`, "Remove it or fix the name.");
  }
  for (const [name, def] of Object.entries(params)) {
    const value = args[name];
    if (value === undefined) {
      if (!def.optional) fail("bad-parameter", where, `action "${action}" needs parameter "${name}"`, "Add it to `with`.");
      continue;
    }
    if (def.type === "array") {
      if (!Array.isArray(value) || !value.every((v) => scalarOk(def.items, v))) {
        fail("bad-parameter", where, `parameter "${name}" of action "${action}" must be a list of ${def.items.type}, got ${kindOf(value)} (${show(value)})`, "Values are not coerced; write the right type.");
      }
    } else if (!scalarOk(def, value)) {
      fail("bad-parameter", where, `parameter "${name}" of action "${action}" must be ${describe(def)}, got ${kindOf(value)} (${show(value)})`, "Values are not coerced; write the right type.");
    }
  }
}
