// What an eval hands the machine's requests to: runAgent / runSeam `executors` (plain functions whose first
// parameter is the request, `createScriptedExecutors(...)`, or a local function returning either), and
// the keys that name requests outside `scripts` — createScriptedExecutors' `text` / `decisions` and
// simulateAgent's `script: { text, decisions }`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { Parsed } from "../resolve/declarations";
import { calleeName, isFunctionLike, returnedExpressions } from "../util/ts-nodes";
import type { StatelyHost } from "./host";
import type { EvalCall, Text } from "./model";

const KEYED_BY_REQUEST = ["text", "decisions"];

/** The value of an `executors` option. */
export function readExecutors(x: StatelyHost, at: Parsed, node: ts.Node, out: EvalCall, depth = 0): void {
  const v = x.values.valueOf(at, node);
  if (!v || depth > 2) return;
  if (ts.isCallExpression(v.node)) {
    if (calleeName(v.node) === "createScriptedExecutors") {
      out.scriptedExecutors.push(v.node);
      const keys = readRequestKeys(x, v.at, v.node.arguments[0], out);
      if (depth === 0) out.scriptedKeys.push({ at: v.at, call: v.node, keys });
      return;
    }
    // a local factory: what its function returns
    const fn = x.values.valueOf(v.at, v.node.expression);
    if (fn && isFunctionLike(fn.node)) for (const returned of returnedExpressions(fn.node)) readExecutors(x, fn.at, returned, out, depth + 1);
    return;
  }
  const view = x.values.object(v.at, v.node);
  for (const entry of view?.entries.values() ?? []) {
    const fn = x.values.valueOf(entry.at, entry.value);
    if (fn && isFunctionLike(fn.node) && fn.node.parameters.length > 0) out.executorFns.push({ at: fn.at, node: fn.node });
  }
}

/** `{ text: { draftEmail: ... }, decisions: { triage: ... } }`: keys naming requests (`"*"` names none),
 *  added to the call's `requestKeys` and returned. */
export function readRequestKeys(x: StatelyHost, at: Parsed, node: ts.Node | undefined, out: EvalCall): Text[] {
  const found: Text[] = [];
  const view = node && x.values.object(at, node);
  for (const section of KEYED_BY_REQUEST) {
    const entry = view?.entries.get(section);
    const keys = entry && x.values.object(entry.at, entry.value);
    for (const key of keys?.entries.values() ?? []) if (key.name !== "*") found.push({ text: key.name, at: key.at, node: key.nameNode });
  }
  out.requestKeys.push(...found);
  return found;
}
