// unknown-field: a step's `collect` (or a mention's `extract`) names a field that `fields({...})` does not declare.
import type { QuickFix } from "../../types";
import type { FieldSetModel, FlowModel, Str } from "../model";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";

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

/** Field names a flow may collect, or undefined when its builder's fields are not all known. */
function declaredFields(flow: FlowModel): string[] | undefined {
  if (!flow.builder.known) return undefined;
  const set = flow.builder.fieldSet;
  if (!set) return []; // a bare falai() builder declares no fields
  return set.complete ? set.fields.map((f) => f.name) : undefined;
}

export const unknownField: FalaiCheck = (model) => {
  const out = [];
  const knownBySet = new Map<FieldSetModel | undefined, Set<string>>();
  for (const flow of model.flows) {
    const names = declaredFields(flow);
    if (!names) continue;
    let known = knownBySet.get(flow.builder.fieldSet);
    if (!known) knownBySet.set(flow.builder.fieldSet, (known = new Set(names)));
    const refs: Str[] = [...flow.steps.flatMap((s) => s.collect), ...flow.triggers.flatMap((t) => t.extract)];
    for (const ref of refs) {
      if (known.has(ref.text) || ref.unterminated) continue;
      const { fix, suggestion } = nearestFix(model.file, ref, names);
      const fixes: QuickFix[] = [];
      if (fix) fixes.push(fix);
      const add = flow.builder.fieldSet && ref.text.trim() !== "" ? addDeclarationFix(flow.builder.fieldSet, ref.text) : undefined;
      if (add) fixes.push(add);
      out.push(finding("unknown-field", `Field '${ref.text}' is not declared in fields({...}).${didYouMean(suggestion)}`, model.file, ref.full, fixes));
    }
  }
  return out;
};
