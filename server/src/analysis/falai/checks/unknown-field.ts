// unknown-field: a flow names a field its builder's `fields({...})` does not declare — in `collect`, a
// talk step's `ask`, a `clear` list, `clearOnStart`, or a condition's `equals` / `known`.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding, QuickFix } from "../../types";
import type { FieldSetModel, FlowModel, Str } from "../model";
import { keepShape } from "../../util/shapes";
import { CUT, GuessBudget, NameList, nearestIn } from "../../util/name-index";
import { didYouMean, finding, suggestedFix } from "./finding";
import { forEachAgentPred, forEachFieldRef, type FieldRefVisitor } from "../walk";

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

export const unknownField: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-field",
  severity: "error",
  description: "A collect step names a field that fields({...}) does not declare.",
  when: "a flow or an agent's instructions name a field `fields({...})` does not declare (`collect`, `ask`, `clear`, `clearOnStart`, `equals`, `known`); quick fix: nearest name, or declare it",
  docs: "a flow names a field `fields({...})` does not declare: `collect`, a talk step's `ask` keys, a `clear` list, `clearOnStart`, a condition's `equals` / `known` (also in the agent's own and its idle speaker's `instructions[].if`)",
  quickFix: "nearest field, or declare it",
  run: (model) => {
    const out: Finding[] = [];
    const refs = new FieldRefs(model.file, out);
    // one name list per field set (a file may hold hundreds of flows over one set)
    const bySet = new Map<FieldSetModel | undefined, DeclaredFields>();
    for (const flow of model.flows) {
      if (!fieldSetKnown(flow)) continue;
      const set = flow.builder.fieldSet;
      let declared = bySet.get(set);
      if (!declared) {
        const names = set ? set.fields.map((f) => f.name) : []; // a bare falai() builder declares no fields
        bySet.set(set, (declared = { names: new NameList(names), known: new Set(names), guesses: new Map() }));
      }
      refs.use(set, declared);
      forEachFieldRef(flow, refs);
    }
    // an agent's own instructions (and its idle speaker's) read fields of its builder's set too
    for (const agent of model.agents) {
      const builder = agent.builder;
      if (!builder.known || (builder.fieldSet && !builder.fieldSet.complete)) continue;
      const names = builder.fieldSet ? builder.fieldSet.fields.map((f) => f.name) : [];
      refs.use(builder.fieldSet, { names: new NameList(names), known: new Set(names), guesses: new Map() });
      forEachAgentPred(agent, (pred) => {
        for (const ref of pred.fields) refs.fieldRef(ref, "an instruction of this agent");
      });
    }
    return out;
  },
};

/** A field set's names, and the guess made for each unknown one. */
interface DeclaredFields {
  names: NameList;
  known: Set<string>;
  guesses: Map<string, string | undefined>;
}

/** The field names of the flow being checked, against its field set (a class's method, not a closure
 *  made per flow: util/shapes.ts). The file's guesses share one budget (util/name-index.ts), past which
 *  the remaining findings carry none. */
class FieldRefs implements FieldRefVisitor {
  set: FieldSetModel | undefined;
  names = new NameList([]);
  private readonly budget = new GuessBudget();
  known = new Set<string>();
  /** The nearest declared name of each unknown one (a renamed field leaves every use of it unknown:
   *  one guess per name, not per use). */
  guesses = new Map<string, string | undefined>();

  constructor(
    private readonly file: string,
    private readonly out: Finding[],
  ) {}

  /** The field set the next references are checked against. */
  use(set: FieldSetModel | undefined, declared: DeclaredFields): void {
    this.set = set;
    this.names = declared.names;
    this.known = declared.known;
    this.guesses = declared.guesses;
  }

  fieldRef(ref: Str, via: string): void {
    if (this.known.has(ref.text) || ref.unterminated) return;
    let guess = this.guesses.get(ref.text);
    if (guess === undefined && !this.guesses.has(ref.text)) {
      const found = nearestIn(ref.text, [this.names], this.budget);
      this.guesses.set(ref.text, (guess = found === CUT ? undefined : found));
    }
    const { fix, suggestion } = suggestedFix(this.file, ref, guess);
    const fixes: QuickFix[] = [];
    if (fix) fixes.push(fix);
    const add = this.set && ref.text.trim() !== "" ? addDeclarationFix(this.set, ref.text) : undefined;
    if (add) fixes.push(add);
    this.out.push(finding("unknown-field", `Field '${ref.text}' (in ${via}) is not declared in fields({...}).${didYouMean(suggestion)}`, this.file, ref.full, fixes));
  }
}

// Kept so the class's map outlives each analysis (util/shapes.ts).
keepShape(new FieldRefs("", []));
