// An invoke's `src` → what it runs: a request named by string, an inline request (createTextLogic /
// createDecisionLogic / agent.decide(...), or a built-in src whose `input` holds the request's options),
// other actor logic (a machine, fromPromise, …), or unknown; and what logic a setup's actors register.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import type { ObjectView, Values } from "../resolve/values";
import { calleeName, isFunctionLike, isStringLike, returnedExpressions, unwrap } from "../util/ts-nodes";
import type { StatelyHost } from "./host";
import type { ActorLogic, InvokeDef, SrcDef, StateDef } from "./model";

// A Map, not an object literal: a callee named like an Object.prototype member ("toString") is no factory.
const REQUEST_FACTORIES = new Map<string, "text" | "decision">([["createTextLogic", "text"], ["createDecisionLogic", "decision"]]);
/** The built-in srcs whose invoke `input` is an inline request's options. */
const BUILT_IN_REQUESTS = new Map<string, "text" | "decision">([["agent.decide", "decision"], ["agent.generateText", "text"], ["agent.streamText", "text"]]);
/** Calls that make actor logic which is no model request. */
const OTHER_LOGIC = new Set(["createMachine", "fromPromise", "fromCallback", "fromObservable", "fromTransition", "createAsyncLogic", "provide"]);

/** What the actor source `node` registered in a setup is: request logic with the name and model it
 *  carries, other logic, or unknown (see ActorLogic). */
export function actorLogicOf(values: Values, at: Parsed, node: ts.Node): ActorLogic {
  const v = values.valueOf(at, node);
  if (!v || !ts.isCallExpression(v.node)) return { kind: "unknown" };
  const callee = calleeName(v.node);
  if (callee && OTHER_LOGIC.has(callee)) return { kind: "other" };
  const logic = callee ? REQUEST_FACTORIES.get(callee) : undefined;
  if (!logic) return { kind: "unknown" };
  const arg = v.node.arguments[0];
  const view = arg ? values.object(v.at, arg) : undefined;
  if (!view) return { kind: "request", logic, open: true };
  const nameEntry = view.entries.get("name");
  const modelEntry = view.entries.get("model");
  const name = nameEntry ? values.string(nameEntry.at, nameEntry.value)?.text : undefined;
  const model = modelEntry ? values.string(modelEntry.at, modelEntry.value)?.text : undefined;
  // a name or model written but not read, or a spread that may carry one
  const open = (nameEntry !== undefined && name === undefined) || (modelEntry !== undefined && model === undefined) || !view.complete;
  return { kind: "request", logic, name, model, open };
}

/** What an invoke's `src` (written `raw`, in the invoke object `invokeView`) runs. */
export function readSrc(x: StatelyHost, state: StateDef, invoke: InvokeDef, at: Parsed, raw: ts.Node, invokeView: ObjectView): SrcDef {
  const direct = unwrap(raw);
  const builtIn = isStringLike(direct) && invokeView.entries.has("input") ? BUILT_IN_REQUESTS.get(direct.text) : undefined;
  if (isStringLike(direct) && !builtIn) return { kind: "string", text: direct.text, at, node: direct };
  // The built-in inline requests: `src: agent.decide` (or "agent.decide", "agent.generateText",
  // "agent.streamText"), `input: { name?, model, prompt }`.
  if (builtIn || (ts.isPropertyAccessExpression(direct) && direct.name.text === "decide")) {
    const input = invokeView.entries.get("input");
    let inputNode = input ? x.values.valueOf(input.at, input.value) : undefined;
    if (input && !inputNode) return { kind: "unknown" };
    if (inputNode && isFunctionLike(inputNode.node)) {
      // `input: ({ context }) => ({ name, model, prompt })`: the returned object (when there is one)
      const returned = returnedExpressions(inputNode.node).map((e) => unwrap(e));
      const objects = returned.filter((e) => ts.isObjectLiteralExpression(e));
      inputNode = objects.length === 1 && returned.length === 1 ? { at: inputNode.at, node: objects[0]! } : undefined;
      if (!inputNode) return { kind: "unknown" };
    }
    const logic = builtIn ?? "decision";
    return readInlineRequest(x, state, invoke, inputNode?.at ?? at, direct, logic, isStringLike(direct) ? direct.text : "agent.decide", inputNode);
  }
  const v = x.values.valueOf(at, direct);
  if (!v) return { kind: "unknown" };
  if (ts.isStringLiteral(v.node) || ts.isNoSubstitutionTemplateLiteral(v.node)) return { kind: "string", text: v.node.text, at: v.at, node: v.node };
  if (ts.isCallExpression(v.node)) {
    const name = calleeName(v.node);
    const factory = name ? REQUEST_FACTORIES.get(name) : undefined;
    const isDecide = name === "decide" && ts.isPropertyAccessExpression(unwrap(v.node.expression));
    if (factory || isDecide) return readInlineRequest(x, state, invoke, v.at, v.node, isDecide ? "decision" : factory!, isDecide ? "agent.decide" : name!);
    if (name && OTHER_LOGIC.has(name)) {
      return { kind: "object", what: name === "createMachine" || name === "provide" ? "a machine" : `${name}(...) logic`, at: v.at, node: v.node };
    }
    return { kind: "unknown" };
  }
  if (ts.isObjectLiteralExpression(v.node)) return { kind: "object", what: "an actor-logic object", at: v.at, node: v.node };
  return { kind: "unknown" };
}

/** An inline request: a createTextLogic / createDecisionLogic / agent.decide(...) call with its options
 *  object, or `src: agent.decide` whose options are the invoke's `input`. */
function readInlineRequest(x: StatelyHost, state: StateDef, invoke: InvokeDef, at: Parsed, call: ts.Node, logic: "text" | "decision", via: string, options?: { at: Parsed; node: ts.Node }): SrcDef {
  const argAt = options?.at ?? at;
  const arg = options ? options.node : ts.isCallExpression(call) && call.arguments[0] ? unwrap(call.arguments[0]) : undefined;
  if (options && !ts.isObjectLiteralExpression(options.node)) return { kind: "unknown" };
  const view = arg ? x.values.object(argAt, arg) : undefined;
  const nameEntry = view?.entries.get("name");
  const name = nameEntry ? x.values.string(nameEntry.at, nameEntry.value) : undefined;
  const modelEntry = view?.entries.get("model");
  const model = modelEntry ? x.values.string(modelEntry.at, modelEntry.value) : undefined;
  // a model written but not read, or a spread that may carry one: its model key cannot be known
  const modelOpen = (modelEntry !== undefined && model === undefined) || (view !== undefined && !view.complete && !modelEntry);
  const src: SrcDef = { kind: "request", logic, via, at, node: call, name, model, modelOpen, arg: arg && ts.isObjectLiteralExpression(arg) ? arg : undefined, argAt };
  if (nameEntry && !name) return { kind: "unknown" }; // a computed name: nothing to say about it
  if (!view && arg) return { kind: "unknown" };
  if (view && !view.complete && !name) return { kind: "unknown" }; // a spread may carry the name
  const machine = state.machine;
  if (name) {
    const id = `${machine.at.file}#request:${machine.name}.${name.text}`;
    const request = machine.inlineRequests.get(name.text) ?? x.readRequestConfig(argAt, arg ?? call, name, id, logic);
    request.inline = true;
    if (!machine.inlineRequests.has(name.text)) {
      request.node = call;
      machine.inlineRequests.set(name.text, request);
    }
    src.request = request;
  }
  void invoke;
  return src;
}
