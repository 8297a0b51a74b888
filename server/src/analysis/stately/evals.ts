// Eval call sites: runSeam / runAgent / simulateAgent / explorePaths / canReach / matchesTrajectory /
// executeAgentRequest, the machine each one runs (followed through imports), and the names they use:
// scripts keys, seam.request, state names.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import { calleeName, isFunctionLike, returnedExpressions, unwrap } from "../util/ts-nodes";
import { fedList } from "./fed-arrays";
import { actorLogicOf } from "./sources";
import type { StatelyHost } from "./host";
import { readExecutors, readRequestKeys } from "./executors";
import type { EvalApi, EvalCall, MachineDef, Text } from "./model";

export const EVAL_APIS: ReadonlySet<EvalApi> = new Set<EvalApi>(["runSeam", "runAgent", "simulateAgent", "explorePaths", "canReach", "matchesTrajectory", "executeAgentRequest"]);

export function emptyEvalCall(api: EvalApi, at: Parsed, node: ts.Node): EvalCall {
  return { api, at, node, scripts: [], scriptsComplete: true, stateRefs: [], stateValueRefs: [], eventRefs: [], executorFns: [], scriptedExecutors: [], requestKeys: [], scriptedKeys: [] };
}

export function extractEvalCall(x: StatelyHost, at: Parsed, call: ts.CallExpression, api: EvalApi): EvalCall {
  const result = emptyEvalCall(api, at, call);
  const [first, second] = call.arguments;
  if (api === "matchesTrajectory") {
    result.machine = first ? machineBehind(x, at, first, 0) : undefined;
    let kind = first && result.machine ? trajectoryKind(x, at, first, 0) : "unknown";
    const fed = first && !result.machine ? fedList(x, at, first, machineOf) : undefined;
    if (fed) {
      result.machine = fed.machine;
      kind = fed.kind;
    }
    if (second) readExpected(x, at, second, kind, result);
    return result;
  }
  if (api === "executeAgentRequest") return result;
  result.machine = first ? machineOf(x, at, first) : undefined;
  if (api === "canReach" && second) {
    const target = x.values.string(at, second);
    if (target) result.stateRefs.push(target);
    return result;
  }
  const options = second && (api === "runSeam" || api === "runAgent" || api === "simulateAgent") ? x.values.object(at, second) : undefined;
  const executors = options?.entries.get("executors");
  if (executors) readExecutors(x, executors.at, executors.value, result);
  const script = api === "simulateAgent" ? options?.entries.get("script") : undefined;
  if (script) readRequestKeys(x, script.at, script.value, result);
  if (api === "runSeam" && options) {
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

/** The machine an expression evaluates to, when it is a createMachine call we know, or a call of a local
 *  factory function every `return` of which gives that one machine. */
function machineOf(x: StatelyHost, at: Parsed, expr: ts.Node, depth = 0): MachineDef | undefined {
  const v = x.values.valueOf(at, expr);
  if (!v || !ts.isCallExpression(v.node) || depth > 4) return undefined;
  const name = calleeName(v.node);
  if (name === "createMachine") return x.machineAt(v.at, v.node);
  // the same machine with executors or implementations bound: its states and request names stay
  if (name === "provideExecutors" && v.node.arguments[0]) return machineOf(x, v.at, v.node.arguments[0], depth + 1);
  const callee = unwrap(v.node.expression);
  if (name === "provide" && ts.isPropertyAccessExpression(callee)) return providesNoRequests(x, v.at, v.node.arguments[0]) ? machineOf(x, v.at, callee.expression, depth + 1) : undefined;
  const fn = depth < 3 ? x.values.valueOf(v.at, v.node.expression) : undefined;
  if (!fn || !isFunctionLike(fn.node)) return undefined;
  let machine: MachineDef | undefined;
  for (const returned of returnedExpressions(fn.node)) {
    const m = machineOf(x, fn.at, returned, depth + 1);
    if (!m || (machine && m !== machine)) return undefined;
    machine = m;
  }
  return machine;
}

/** `machine.provide({ actors, ... })` whose actors are all logic that is no model request (createAsyncLogic,
 *  fromPromise, a machine...): the request names stay the machine's own. */
function providesNoRequests(x: StatelyHost, at: Parsed, arg: ts.Node | undefined): boolean {
  const options = arg && x.values.object(at, arg);
  if (!options?.complete) return false;
  for (const key of ["actors", "actorSources"]) {
    const entry = options.entries.get(key);
    if (!entry) continue;
    const actors = x.values.object(entry.at, entry.value);
    if (!actors?.complete) return false;
    for (const a of actors.entries.values()) if (actorLogicOf(x.values, a.at, a.value).kind !== "other") return false;
  }
  return true;
}

/** The machine behind a run result (`sim.trail`, `run.statePath`): the first argument of the eval call
 *  that produced the root variable. */
function machineBehind(x: StatelyHost, at: Parsed, expr: ts.Node, depth: number): MachineDef | undefined {
  if (depth > 8) return undefined;
  let node = unwrap(expr);
  while (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || (ts.isCallExpression(node) && ts.isPropertyAccessExpression(unwrap(node.expression)))) {
    node = unwrap(ts.isCallExpression(node) ? (unwrap(node.expression) as ts.PropertyAccessExpression).expression : node.expression);
  }
  if (!ts.isIdentifier(node)) return undefined;
  const r = x.resolver.resolveIdentifier(at, node);
  if (r?.kind !== "value") return undefined;
  let init = unwrap(r.node);
  if (ts.isAwaitExpression(init)) init = unwrap(init.expression);
  if (!ts.isCallExpression(init)) return undefined;
  const name = calleeName(init);
  // `const path = run.trail.map((e) => e.state)`: the run behind it
  if (name && !EVAL_APIS.has(name as EvalApi) && ts.isPropertyAccessExpression(unwrap(init.expression))) return machineBehind(x, r.at, init, depth + 1);
  if (!name || !EVAL_APIS.has(name as EvalApi) || !init.arguments[0]) return undefined;
  return machineOf(x, r.at, init.arguments[0]);
}

/** What a trajectory's actual list surely is, by the property it is read from: a run's state path
 *  (`statePath`, `path`, `pathBefore`, `pathAfter`, or simulateAgent's `trail.map((e) => e.state)`) or
 *  its event log (`events`, `eventsBefore`, `eventsAfter`), also through a const holding it. Anything else
 *  (a trail, a list built in code) is not judged. */
function trajectoryKind(x: StatelyHost, at: Parsed, actual: ts.Node, depth: number): "states" | "events" | "unknown" {
  const node = unwrap(actual);
  if (ts.isIdentifier(node) && depth < 4) {
    const r = x.resolver.resolveIdentifier(at, node);
    return r?.kind === "value" && r.node !== node ? trajectoryKind(x, r.at, r.node, depth + 1) : "unknown";
  }
  if (ts.isCallExpression(node)) return isTrailStates(node) ? "states" : "unknown";
  if (!ts.isPropertyAccessExpression(node)) return "unknown";
  const name = node.name.text;
  if (STATE_PATHS.has(name)) return "states";
  if (EVENT_LOGS.has(name)) return "events";
  return "unknown";
}

/** `x.trail.map((entry) => entry.state)` (a simulateAgent trail's states). */
function isTrailStates(call: ts.CallExpression): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "map") return false;
  const list = unwrap(callee.expression);
  if (!ts.isPropertyAccessExpression(list) || list.name.text !== "trail") return false;
  const fn = call.arguments[0] && unwrap(call.arguments[0]);
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) || fn.parameters.length !== 1) return false;
  const param = fn.parameters[0]!.name;
  const returned = returnedExpressions(fn);
  return returned.length === 1 && ts.isIdentifier(param) && isStateOf(unwrap(returned[0]!), param.text);
}

function isStateOf(expr: ts.Node, param: string): boolean {
  return ts.isPropertyAccessExpression(expr) && expr.name.text === "state" && ts.isIdentifier(unwrap(expr.expression)) && (unwrap(expr.expression) as ts.Identifier).text === param;
}

const STATE_PATHS = new Set(["statePath", "path", "pathBefore", "pathAfter"]);
const EVENT_LOGS = new Set(["events", "eventsBefore", "eventsAfter"]);

/** The expected list: empty is its own mistake; its items are state names (strings, or state values
 *  written as objects) or event types (strings, or event objects by `type`), as the actual list is. */
function readExpected(x: StatelyHost, at: Parsed, expr: ts.Node, kind: "states" | "events" | "unknown", out: EvalCall): void {
  const v = x.values.valueOf(at, expr);
  if (!v || !ts.isArrayLiteralExpression(v.node)) return;
  if (v.node.elements.length === 0) {
    out.emptyTrajectory = { at: v.at, node: v.node };
    return;
  }
  if (kind === "unknown") return;
  for (const el of v.node.elements) {
    const s = x.values.string(v.at, el);
    if (s) (kind === "states" ? out.stateRefs : out.eventRefs).push(s);
    else if (kind === "events") {
      const type = x.values.object(v.at, el)?.entries.get("type");
      const text = type && x.values.string(type.at, type.value);
      if (text) out.eventRefs.push(text);
    } else out.stateValueRefs.push(...stateValuePaths(x, v.at, el, 0));
  }
}

/** `{ review: { pane: "editing" } }` → the key path to each leaf: [review, pane, editing]. Parts that
 *  cannot be read end their path there. */
function stateValuePaths(x: StatelyHost, at: Parsed, node: ts.Node, depth: number): Text[][] {
  const view = depth < 16 ? x.values.object(at, node) : undefined;
  if (!view) return [];
  const out: Text[][] = [];
  for (const entry of view.entries.values()) {
    const key: Text = { text: entry.name, at: entry.at, node: entry.nameNode };
    const leaf = x.values.string(entry.at, entry.value);
    if (leaf) out.push([key, leaf]);
    else {
      const inner = stateValuePaths(x, entry.at, entry.value, depth + 1);
      out.push(...(inner.length ? inner.map((p) => [key, ...p]) : [[key]]));
    }
  }
  return out;
}
