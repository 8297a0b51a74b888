// bad-field-type: a field `type` outside string, number, integer and boolean (an enum is a `type` with
// an `enum` list: `{ type: "string", enum: [...] }`).
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { didYouMean, finding, nearestFix } from "./finding";

const TYPES = ["string", "number", "integer", "boolean"];

export const badFieldType: CheckDescriptor<FalaiFileModel> = {
  code: "bad-field-type",
  severity: "error",
  description: "A field type is not string, number, integer or boolean.",
  when: "a field `type` outside `string`, `number`, `integer`, `boolean` (an enum is `{ type: \"string\", enum: [...] }`)",
  docs: "a field `type` outside `string`, `number`, `integer`, `boolean` (an enum is `{ type: \"string\", enum: [...] }`)",
  quickFix: "nearest type (`\"enum\"` → `\"string\"`)",
  run: (model) => {
    const out: Finding[] = [];
    for (const set of model.fieldSets) {
      for (const field of set.fields) {
        const type = field.type;
        if (!type || TYPES.includes(type.text) || type.unterminated) continue;
        const enumHint = type.text === "enum" ? ' An enum is a type with a list: { type: "string", enum: [...] }.' : "";
        const { fix, suggestion } = type.text === "enum" ? nearestFix(model.file, type, ["string"], true) : nearestFix(model.file, type, TYPES);
        out.push(finding("bad-field-type", `Field '${field.name}' has type '${type.text}'; a field is string, number, integer or boolean.${enumHint || didYouMean(suggestion)}`, model.file, type.full, fix ? [fix] : undefined));
      }
    }
    return out;
  },
};
