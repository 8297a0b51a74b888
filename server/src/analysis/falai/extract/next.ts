// `Next`: where a step sends the run — a step id, "end", `{ step, clear }`, or `{ flow, input }`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { isMissing, isStringLike } from "../../util/ts-nodes";
import type { NextModel } from "../model";
import type { Reader } from "../reader";

/** Undefined when absent; `{ kind: "dynamic" }` when present but not readable. */
export function readNext(r: Reader, node: ts.Node | undefined): NextModel | undefined {
  if (!node || isMissing(node)) return undefined;
  const value = r.local(node);
  if (value && isStringLike(value)) {
    const str = r.str(value)!;
    return str.text === "end" ? { kind: "end", str, clear: [] } : { kind: "step", step: str, clear: [] };
  }
  const obj = value && ts.isObjectLiteralExpression(value) ? r.props(value) : undefined;
  if (!obj) return { kind: "dynamic" };
  const step = obj.get("step");
  if (step) {
    const str = r.str(step);
    if (!str || !obj.complete) return { kind: "dynamic" };
    const clear = r.strList(obj.get("clear"));
    return str.text === "end" ? { kind: "end", str, clear } : { kind: "step", step: str, clear };
  }
  const flow = obj.get("flow");
  if (flow) {
    const str = r.str(flow);
    // `flow` is a template: "{{input.flowId}}" names whatever flow the input says
    return { kind: "flow", flow: str && !str.text.includes("{{") ? str : undefined };
  }
  return { kind: "dynamic" };
}
