// A predicate (`Pred`): a function, or its JSON form (`ConditionSpec`). The JSON form names things:
// the built-ins `equals` (field keys) and `known` (field names), and any other key names one of the
// agent's conditions. `silenced` is a built-in with no name in it.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { isFunctionLike, isMissing } from "../../util/ts-nodes";
import { Str, type PredModel } from "../model";
import type { Reader } from "../reader";

const BUILT_INS = new Set(["equals", "known", "silenced"]);

/** The names a predicate uses; undefined for a function, or an expression we cannot read. */
export function readPred(r: Reader, node: ts.Node | undefined): PredModel | undefined {
  if (!node || isMissing(node)) return undefined;
  const value = r.local(node);
  if (!value || isFunctionLike(value) || ts.isArrowFunction(value)) return undefined;
  const spec = r.props(value);
  if (!spec) return undefined;
  const pred: PredModel = { fields: [], conditions: [] };
  for (const [key, prop] of spec.byName) {
    const arg = spec.get(key)!;
    if (isUndefined(r, arg)) continue; // a key whose value is undefined is skipped
    if (key === "equals") {
      for (const [field, p] of r.props(arg)?.byName ?? []) if (p.name && !isMissing(p.name)) pred.fields.push(keyStr(r, p.name, field));
    } else if (key === "known") {
      pred.fields.push(...r.strList(arg));
    } else if (!BUILT_INS.has(key)) {
      const name = prop.name;
      if (name && !isMissing(name) && !ts.isComputedPropertyName(name)) pred.conditions.push(keyStr(r, name, key));
    }
  }
  return pred;
}

function isUndefined(r: Reader, node: ts.Node): boolean {
  const n = r.unwrap(node);
  return (ts.isIdentifier(n) && n.text === "undefined") || ts.isVoidExpression(n);
}

/** A property key as a Str: a key names a field or a condition the way a string would. */
export function keyStr(r: Reader, name: ts.PropertyName, text: string): Str {
  return new Str(text, r.keyRange(name), r.range(name));
}
