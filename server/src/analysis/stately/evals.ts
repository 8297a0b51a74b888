// Eval call sites: runSeam / runAgent / simulateAgent / explorePaths / canReach / matchesTrajectory /
// executeAgentRequest, the machine each one runs (followed through imports), and the names they use:
// scripts keys, seam.request, state names.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Parsed } from "../resolve/declarations";
import { calleeName, unwrap } from "../util/ts-nodes";
import type { StatelyHost } from "./host";
import { readExecutors, readRequestKeys } from "./executors";
import type { EvalApi, EvalCall, MachineDef, Text } from "./model";

export const EVAL_APIS: ReadonlySet<EvalApi> = new Set<EvalApi>(["runSeam", "runAgent", "simulateAgent", "explorePaths", "canReach", "matchesTrajectory", "executeAgentRequest"]);

export function emptyEvalCall(api: EvalApi, at: Parsed, node: ts.Node): EvalCall {
  return { api, at, node, scripts: [], scriptsComplete: true, stateRefs: [], stateValueRefs: [], eventRefs: [], executorFns: [], scriptedExecutors: [], requestKeys: [] };
}

export function extractEvalCall(x: StatelyHost, at: Parsed, call: ts.CallExpression, api: EvalApi): EvalCall {
  const result = emptyEvalCall(api, at, call);
  const [first, second] = call.arguments;
  if (api === "matchesTrajectory") {
    result.machine = first ? machineBehind(x, at, first, 0) : undefined;
    if (second) readExpected(x, at, second, first ? trajectoryKind(first) : "unknown", result);
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

/** The machine an expression evaluates to, when it is a createMachine call we know. */
export function machineOf(x: StatelyHost, at: Parsed, expr: ts.Node): MachineDef | undefined {
  const v = x.values.valueOf(at, expr);
  if (!v || !ts.isCallExpression(v.node) || calleeName(v.node) !== "createMachine") return undefined;
  return x.machineAt(v.at, v.node);
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
  if (!name || !EVAL_APIS.has(name as EvalApi) || !init.arguments[0]) return undefined;
  return machineOf(x, r.at, init.arguments[0]);
}

/** What a trajectory's actual list surely is, by the property it is read from: a run's state path
 *  (`statePath`, `path`, `pathBefore`, `pathAfter`) or its event log (`events`, `eventsBefore`,
 *  `eventsAfter`). Anything else (a trail, a list built in code) is not judged. */
function trajectoryKind(actual: ts.Node): "states" | "events" | "unknown" {
  const node = unwrap(actual);
  if (!ts.isPropertyAccessExpression(node)) return "unknown";
  const name = node.name.text;
  if (STATE_PATHS.has(name)) return "states";
  if (EVENT_LOGS.has(name)) return "events";
  return "unknown";
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
