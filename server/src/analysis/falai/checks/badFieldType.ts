// bad-field-type: a field `type` outside string / number / boolean / enum, or an enum without `values`.
import type { Finding } from "../../types";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

const TYPES = ["string", "number", "boolean", "enum"];

export const badFieldType: FalaiCheck = (model) => {
  const out: Finding[] = [];
  for (const set of model.fieldSets) {
    for (const field of set.fields) {
      const type = field.type;
      if (!type) continue;
      if (!TYPES.includes(type.text)) {
        const { fix, suggestion } = nearestFix(model.file, type, TYPES);
        out.push(finding("bad-field-type", `Field '${field.name}' has type '${type.text}'; a field is string, number, boolean or enum.${didYouMean(suggestion)}`, model.file, type.full, fix ? [fix] : undefined));
      } else if (type.text === "enum" && (!field.hasValues || (field.values && field.values.length === 0))) {
        out.push(finding("bad-field-type", `Enum field '${field.name}' needs \`values\`: the list of allowed values.`, model.file, type.full));
      }
    }
  }
  return out;
};
