// unknown-field: a flow names a field its builder's `fields({...})` does not declare — in `collect`, a
// talk step's `ask`, a `clear` list, `clearOnStart`, or a condition's `equals` / `known`.
import type { Finding, QuickFix } from "../../types";
import type { FieldSetModel, FlowModel } from "../model";
import { didYouMean, finding, nearestFix, type FalaiCheck } from "./finding";
import { forEachFieldRef } from "../walk";

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

/** Whether a flow's field names can all be known: its builder is known and its field set complete. */
function fieldSetKnown(flow: FlowModel): boolean {
  return flow.builder.known && (!flow.builder.fieldSet || flow.builder.fieldSet.complete);
}

export const unknownField: FalaiCheck = (model) => {
  const out: Finding[] = [];
  // one name list per field set (a file may hold hundreds of flows over one set)
  const bySet = new Map<FieldSetModel | undefined, { names: string[]; known: Set<string> }>();
  for (const flow of model.flows) {
    if (!fieldSetKnown(flow)) continue;
    const set = flow.builder.fieldSet;
    let declared = bySet.get(set);
    if (!declared) {
      const names = set ? set.fields.map((f) => f.name) : []; // a bare falai() builder declares no fields
      bySet.set(set, (declared = { names, known: new Set(names) }));
    }
    const { names, known } = declared;
    forEachFieldRef(flow, (ref, via) => {
      if (known.has(ref.text) || ref.unterminated) return;
      const { fix, suggestion } = nearestFix(model.file, ref, names);
      const fixes: QuickFix[] = [];
      if (fix) fixes.push(fix);
      const add = set && ref.text.trim() !== "" ? addDeclarationFix(set, ref.text) : undefined;
      if (add) fixes.push(add);
      out.push(finding("unknown-field", `Field '${ref.text}' (in ${via}) is not declared in fields({...}).${didYouMean(suggestion)}`, model.file, ref.full, fixes));
    });
  }
  return out;
};
