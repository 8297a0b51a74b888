// `f.flow({...})` and `f.fromSpec(spec)`: a flow's id, triggers, premise (`while`), `clearOnStart`,
// `steps`, `onEnd`, `tools` and `instructions`. A stored JSON flow (FlowSpec) has the same keys; its
// steps add a `kind`, which changes nothing here.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { findProperty, isInsideFunction } from "../../util/ts-nodes";
import type { BuilderRef, FlowModel } from "../model";
import type { FalaiHost } from "./host";
import { readPred } from "./predicates";
import { readInstructionPreds, readSteps } from "./steps";
import { readTriggers } from "./triggers";

/** The flow a call defines, or undefined when its receiver is no falai builder. */
export function readFlow(host: FalaiHost, call: ts.CallExpression, fromSpec: boolean): FlowModel | undefined {
  const r = host.reader;
  const callee = call.expression as ts.PropertyAccessExpression;
  const view = r.props(call.arguments[0]);
  let builder: BuilderRef | undefined = host.builderOf(callee.expression);
  if (!builder) {
    // `f` we cannot follow (a parameter, say): accept the call when it has a flow's shape in a falai file.
    const literal = r.local(call.arguments[0]);
    if (!host.importsFalai || !literal || !ts.isObjectLiteralExpression(literal) || !findProperty(literal, "steps")) return undefined;
    builder = { known: false };
  }
  const id = r.str(view?.get("id"));
  const flow: FlowModel = {
    symbolId: host.claim("flow", id?.text || "flow", call),
    file: r.file,
    id,
    name: r.text(view?.get("name")),
    range: r.range(call),
    builder,
    fromSpec,
    onPresent: false,
    triggers: [],
    triggersStatic: !!view?.complete,
    while: undefined,
    clearOnStart: r.strList(view?.get("clearOnStart")),
    onEnd: r.str(view?.get("onEnd"))?.text,
    tools: r.strList(view?.get("tools")),
    instructionPreds: readInstructionPreds(r, view?.get("instructions")),
    steps: [],
    stepsStatic: !!view,
    complete: !!view?.complete,
    topLevel: !isInsideFunction(call),
    startable: true,
    node: call,
  };
  if (!view) return flow;
  const on = view.get("on");
  if (on) readTriggers(r, on, flow);
  const premise = view.get("while");
  if (premise) flow.while = readPred(r, premise);
  const steps = view.get("steps");
  if (steps) readSteps(host, steps, flow);
  else flow.stepsStatic = false;
  return flow;
}
