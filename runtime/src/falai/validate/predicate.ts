// A predicate's JSON form (ConditionSpec) checked against the fields and, when known, the conditions.
import type { ConditionMap, FieldDefs } from "../types";
import { BUILT_IN_CONDITIONS } from "../predicate";
import { fail, isObject, show } from "./shape";

export function validatePred(pred: unknown, where: string, name: string, fields: FieldDefs, conditions: ConditionMap<any, any> | undefined): void {
  if (pred === undefined || typeof pred === "function") return;
  if (!isObject(pred)) fail("bad-option", where, `${name} is ${show(pred)}, not a predicate`, "Write a function ({ context, data }) => boolean, or a condition: { equals }, { known }, { silenced } or a named one.");
  for (const [key, arg] of Object.entries(pred)) {
    if (arg === undefined) continue;
    if (key === "equals") {
      if (!isObject(arg)) fail("bad-option", where, `${name}.equals is not an object`, "Write equals as { field: value }.");
      for (const [field, value] of Object.entries(arg)) {
        const def = fields[field];
        if (!def) fail("unknown-field", where, `unknown field "${field}" in ${name}.equals`, "Add it to the agent's fields or fix the slug.");
        const want = def.type === "integer" ? "number" : def.type;
        if (value !== null && typeof value !== want) fail("bad-option", where, `${name}.equals gives "${field}" a ${typeof value}, but the field is a ${def.type}`, `Write a ${want}; values are not coerced.`);
        if (def.enum && value !== null && !def.enum.includes(value as string | number)) {
          fail("bad-option", where, `${name}.equals gives "${field}" ${show(value)}, which is not one of ${def.enum.map((v) => show(v)).join(", ")}`, "Use one of the listed values.");
        }
      }
    } else if (key === "known") {
      if (!Array.isArray(arg)) fail("bad-option", where, `${name}.known is not a list`, "Write known as [field, ...].");
      for (const field of arg) if (typeof field !== "string" || !fields[field]) fail("unknown-field", where, `unknown field ${show(field)} in ${name}.known`, "Add it to the agent's fields or fix the slug.");
    } else if (key === "silenced") {
      if (typeof arg !== "boolean") fail("bad-option", where, `${name}.silenced is not a boolean`, "Write true or false.");
    } else if (conditions && !conditions[key] && !BUILT_IN_CONDITIONS.has(key)) {
      fail("unknown-condition", where, `unknown condition "${key}" in ${name}`, "Register it in conditions or use equals, known, silenced.");
    }
  }
}
