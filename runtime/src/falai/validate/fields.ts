// Field and parameter definitions.
import type { FieldDefs, ParamDefs } from "../types";
import { fail, isObject, listAt, objectAt, onlyKeys, optionalText, show, textAt } from "./shape";

const SCALAR_TYPES = ["string", "number", "integer", "boolean"];

function scalar(def: Record<string, unknown>, where: string, extraKeys: readonly string[]): void {
  if (!SCALAR_TYPES.includes(def.type as string)) {
    fail("bad-field-type", where, `type is ${show(def.type)}, which is not one of "string", "number", "integer", "boolean"`, 'An enum is a string (or number) field with `enum: [...]`, e.g. { type: "string", enum: ["a", "b"] }.');
  }
  onlyKeys(def, ["type", "description", "enum", ...extraKeys], where, "a field");
  optionalText(def, "description", where);
  if (def.enum !== undefined) {
    const values = listAt(def.enum, where, "enum");
    if (values.length === 0 || values.some((v) => typeof v !== "string" && typeof v !== "number")) {
      fail("bad-field-type", where, `enum is ${show(def.enum)}`, "Write enum as a non-empty list of strings or numbers.");
    }
  }
}

export function validateFields(defs: unknown): FieldDefs {
  const fields = objectAt(defs, "fields", "fields({...})");
  for (const [slug, def] of Object.entries(fields)) {
    const where = `field "${slug}"`;
    if (!isObject(def)) fail("bad-field-type", where, `is ${show(def)}, not a field definition`, 'Write { type: "string" | "number" | "integer" | "boolean", ask?, enum? }.');
    scalar(def, where, ["label", "ask", "extract"]);
    optionalText(def, "label", where);
    optionalText(def, "ask", where);
    if (def.extract !== undefined && def.extract !== "anywhere" && def.extract !== "asked") {
      fail("bad-option", where, `extract is ${show(def.extract)}, which is not one of "anywhere", "asked"`, "Use one of them.");
    }
  }
  return fields as FieldDefs;
}

export function validateParams(defs: unknown, where: string): ParamDefs {
  const params = objectAt(defs, where, "parameters");
  for (const [name, def] of Object.entries(params)) {
    const at = `${where}, parameter "${name}"`;
    if (!isObject(def)) fail("bad-parameter", at, `is ${show(def)}, not a parameter definition`, 'Write { type: "string" } (or number, integer, boolean, or { type: "array", items }).');
    if (def.optional !== undefined && def.optional !== true) fail("bad-parameter", at, `optional is ${show(def.optional)}`, "Write optional: true, or leave it out.");
    if (def.type === "array") {
      onlyKeys(def, ["type", "items", "description", "optional"], at, "an array parameter");
      scalar(objectAt(def.items, at, "items"), `${at}, items`, []);
    } else {
      scalar(def, at, ["optional"]);
    }
    if (def.description !== undefined) textAt(def.description, at, "description");
  }
  return params as ParamDefs;
}
