// Predicates: a function, or a ConditionSpec (`equals`, `known`, `silenced`, or a registered condition by name),
// every listed entry holding (AND). A predicate that throws makes the turn reject with that error: a broken
// condition is a bug to see, not a silent `false`.
import type { ConditionMap, ConditionSpec, Pred, PredCtx } from "./types";
import { isKnown } from "./coerce";
import { FlowConfigurationError } from "./errors";

export const BUILT_IN_CONDITIONS: ReadonlySet<string> = new Set(["equals", "known", "silenced"]);

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function evaluatePred(pred: Pred<any, any, any> | undefined, ctx: PredCtx<any, any, any>, conditions: ConditionMap<any, any>): boolean {
  if (pred === undefined) return true;
  if (typeof pred === "function") return pred(ctx) === true;
  const spec = pred as ConditionSpec<Record<string, unknown>>;
  const data = (ctx.data ?? {}) as Record<string, unknown>;
  for (const [key, arg] of Object.entries(spec)) {
    if (arg === undefined) continue;
    if (key === "equals") {
      for (const [field, value] of Object.entries(arg as Record<string, unknown>)) if (!deepEqual(data[field], value)) return false;
    } else if (key === "known") {
      if (!(arg as string[]).every((field) => isKnown(data[field]))) return false;
    } else if (key === "silenced") {
      if ((ctx.silenced !== undefined) !== arg) return false;
    } else {
      const condition = conditions[key];
      if (!condition) throw new FlowConfigurationError("unknown-condition", "predicate", `unknown condition "${key}"`, "Register it in conditions or use equals, known, silenced.");
      if (condition.check(ctx, arg) !== true) return false;
    }
  }
  return true;
}
