// Eval call sites: runSeam / runAgent / simulateAgent / explorePaths / canReach / matchesTrajectory /
// executeAgentRequest, the machine each one runs (followed through imports), and the names they use:
// scripts keys, seam.request, state names.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import { calleeName, unwrap } from "../util/ts-nodes";
import type { StatelyExtractor } from "./extract";
import type { EvalApi, EvalCall, MachineDef, Text } from "./model";

export const EVAL_APIS: ReadonlySet<EvalApi> = new Set<EvalApi>(["runSeam", "runAgent", "simulateAgent", "explorePaths", "canReach", "matchesTrajectory", "executeAgentRequest"]);

export function extractEvalCall(x: StatelyExtractor, at: Parsed, call: ts.CallExpression, api: EvalApi): EvalCall {
  const result: EvalCall = { api, at, node: call, scripts: [], scriptsComplete: true, stateRefs: [] };
  const [first, second] = call.arguments;
  if (api === "matchesTrajectory") {
    result.machine = first ? machineBehind(x, at, first, 0) : undefined;
    if (second) readStateList(x, at, second, result);
    return result;
  }
  if (api === "executeAgentRequest") return result;
  result.machine = first ? machineOf(x, at, first) : undefined;
  if (api === "canReach" && second) {
    const target = x.values.string(at, second);
    if (target) result.stateRefs.push(target);
    return result;
  }
  if (api === "runSeam" && second) {
    const options = x.values.object(at, second);
    const scripts = options?.entries.get("scripts");
    if (scripts) {
      const view = x.values.object(scripts.at, scripts.value);
      if (!view) result.scriptsComplete = false;
      else {
        result.scriptsComplete = view.complete;
        for (const e of view.entries.values()) result.scripts.push({ text: e.name, at: e.at, node: e.nameNode });
      }
    }
    const seam = options?.entries.get("seam");
    const seamView = seam && x.values.object(seam.at, seam.value);
    const request = seamView?.entries.get("request");
    const requestText = request && x.values.string(request.at, request.value);
    if (requestText) result.seamRequest = requestText;
  }
  return result;
}

/** The machine an expression evaluates to, when it is a createMachine call we know. */
export function machineOf(x: StatelyExtractor, at: Parsed, expr: ts.Node): MachineDef | undefined {
  const v = x.values.valueOf(at, expr);
  if (!v || !ts.isCallExpression(v.node) || calleeName(v.node) !== "createMachine") return undefined;
  return x.machineAt(v.at, v.node);
}

/** The machine behind a run result (`sim.trail`, `run.statePath`): the first argument of the eval call
 *  that produced the root variable. */
function machineBehind(x: StatelyExtractor, at: Parsed, expr: ts.Node, depth: number): MachineDef | undefined {
  if (depth > 8) return undefined;
  let node = unwrap(expr);
  while (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || (ts.isCallExpression(node) && ts.isPropertyAccessExpression(unwrap(node.expression)))) {
    node = unwrap(ts.isCallExpression(node) ? (unwrap(node.expression) as ts.PropertyAccessExpression).expression : node.expression);
  }
  if (!ts.isIdentifier(node)) return undefined;
  const r = x.ctx.resolver.resolveIdentifier(at, node);
  if (r?.kind !== "value") return undefined;
  let init = unwrap(r.node);
  if (ts.isAwaitExpression(init)) init = unwrap(init.expression);
  if (!ts.isCallExpression(init)) return undefined;
  const name = calleeName(init);
  if (!name || !EVAL_APIS.has(name as EvalApi) || !init.arguments[0]) return undefined;
  return machineOf(x, r.at, init.arguments[0]);
}

function readStateList(x: StatelyExtractor, at: Parsed, expr: ts.Node, out: EvalCall): void {
  const v = x.values.valueOf(at, expr);
  if (!v || !ts.isArrayLiteralExpression(v.node)) return;
  if (v.node.elements.length === 0) {
    out.emptyTrajectory = { at: v.at, node: v.node };
    return;
  }
  for (const el of v.node.elements) {
    const s = x.values.string(v.at, el);
    if (s) out.stateRefs.push(s as Text);
  }
}
