// unknown-field: a flow names a field its builder's `fields({...})` does not declare — in `collect`, a
// talk step's `ask`, a `clear` list, `clearOnStart`, or a condition's `equals` / `known`.
import type { QuickFix } from "../../types";
import type { FieldSetModel, FlowModel } from "../model";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";
import { fieldRefsOfFlow } from "./walk";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function addDeclarationFix(set: FieldSetModel, name: string): QuickFix | undefined {
  if (!set.insertion) return undefined;
  const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
  const { range, prefix, suffix } = set.insertion;
  return {
    title: `Declare field '${name}' in ${set.name}`,
    edits: [{ file: set.file, range, newText: `${prefix}${key}: { type: "string", ask: "…" }${suffix}` }],
  };
}

/** Field names a flow may use, or undefined when its builder's fields are not all known. */
function declaredFields(flow: FlowModel): string[] | undefined {
  if (!flow.builder.known) return undefined;
  const set = flow.builder.fieldSet;
  if (!set) return []; // a bare falai() builder declares no fields
  return set.complete ? set.fields.map((f) => f.name) : undefined;
}

export const unknownField: FalaiCheck = (model) => {
  const out = [];
  for (const flow of model.flows) {
    const names = declaredFields(flow);
    if (!names) continue;
    const known = new Set(names);
    for (const { ref, via } of fieldRefsOfFlow(flow)) {
      if (known.has(ref.text) || ref.unterminated) continue;
      const { fix, suggestion } = nearestFix(model.file, ref, names);
      const fixes: QuickFix[] = [];
      if (fix) fixes.push(fix);
      const add = flow.builder.fieldSet && ref.text.trim() !== "" ? addDeclarationFix(flow.builder.fieldSet, ref.text) : undefined;
      if (add) fixes.push(add);
      out.push(finding("unknown-field", `Field '${ref.text}' (in ${via}) is not declared in fields({...}).${didYouMean(suggestion)}`, model.file, ref.full, fixes));
    }
  }
  return out;
};
