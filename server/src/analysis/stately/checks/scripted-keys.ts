// unknown-script-key on `createScriptedExecutors({ text: { ... }, decisions: { ... } })`: its keys are
// request names (the runtime answers a call from the queue of its request.name, `"*"` from any), so a key
// naming no request of the machines it serves is never read. Judged only when every place the executors
// object goes is known: given inline as an eval call's `executors`, or a const used only as `executors`
// of eval calls on known machines (and read for its `.calls`).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { Finding } from "../../types";
import { unwrap } from "../../util/ts-nodes";
import { constDeclarationOf, usesOf, useParent } from "../../util/uses";
import type { EvalCall, MachineDef, Text } from "../model";
import { requestNamesOf } from "../names";
import { findingWithNearest, machineLabel } from "./finding";

export function checkScriptedExecutorKeys(calls: EvalCall[], file: string): Finding[] {
  // each createScriptedExecutors call, with the machines of the eval calls it is handed to
  const groups = new Map<ts.CallExpression, { keys: Text[]; machines: Set<MachineDef | undefined> }>();
  for (const call of calls) {
    for (const s of call.scriptedKeys) {
      let group = groups.get(s.call);
      if (!group) groups.set(s.call, (group = { keys: s.keys, machines: new Set() }));
      group.machines.add(call.machine);
    }
  }
  if (!groups.size) return [];
  const evalNodes = new Set<ts.Node>(calls.map((c) => c.node));
  const out: Finding[] = [];
  for (const [scripted, { keys, machines }] of groups) {
    if (machines.has(undefined) || !servesOnly(scripted, evalNodes)) continue;
    const requests = new Set<string>();
    let known = true;
    for (const m of machines) {
      const names = requestNamesOf(m!);
      if (!names) known = false;
      for (const r of names?.requests ?? []) requests.add(r);
    }
    if (!known) continue;
    const which = [...machines].map((m) => machineLabel(m!)).join(" or ");
    for (const key of keys) {
      if (requests.has(key.text) || key.at.file !== file) continue;
      out.push(findingWithNearest("unknown-script-key", `createScriptedExecutors key "${key.text}" names no request of ${which}: its answers are never used (keys are request names, or "*").`, key, requests));
    }
  }
  return out;
}

/** Whether the executors object made by this call goes only to the file's eval calls as `executors`. */
function servesOnly(scripted: ts.CallExpression, evalNodes: Set<ts.Node>): boolean {
  const { parent } = useParent(scripted);
  if (ts.isPropertyAssignment(parent)) return isExecutorsOf(parent, evalNodes);
  if (!ts.isVariableDeclaration(parent) || !ts.isIdentifier(parent.name)) return false;
  const decl = constDeclarationOf(parent.name);
  if (decl !== parent) return false;
  for (const use of usesOf(decl)) {
    const at = useParent(use).parent;
    if (ts.isPropertyAccessExpression(at) && at.name.text === "calls") continue; // reading what was asked
    if ((ts.isPropertyAssignment(at) || ts.isShorthandPropertyAssignment(at)) && isExecutorsOf(at, evalNodes)) continue;
    return false;
  }
  return true;
}

/** `executors: x` in the options object of one of the eval calls. */
function isExecutorsOf(prop: ts.PropertyAssignment | ts.ShorthandPropertyAssignment, evalNodes: Set<ts.Node>): boolean {
  if (!ts.isIdentifier(prop.name) || prop.name.text !== "executors") return false;
  const options = useParent(prop.parent).parent;
  return ts.isCallExpression(options) && evalNodes.has(options) && options.arguments[1] !== undefined && unwrap(options.arguments[1]) === prop.parent;
}
