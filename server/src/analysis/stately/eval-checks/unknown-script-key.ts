// unknown-script-key: a key that answers nothing. A `runSeam` `scripts` key must be a request name or a
// model key of that machine. A `createScriptedExecutors({ text: { ... }, decisions: { ... } })` key is a
// request name (the runtime answers a call from the queue of its request.name, `"*"` from any), so one
// naming no request of the machines it serves is never read; it is judged only when every place the
// executors object goes is known: given inline as an eval call's `executors`, or a const used only as
// `executors` of eval calls on known machines (and read for its `.calls`).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import { unwrap } from "../../util/ts-nodes";
import { constDeclarationOf, usesOf, useParent } from "../../util/uses";
import { findingWithNearest, machineLabel } from "../checks/finding";
import type { EvalCall, MachineDef, Text } from "../model";
import type { EvalFile } from "./eval-file";

export const unknownScriptKey: CheckDescriptor<EvalFile> = {
  code: "unknown-script-key",
  severity: "error",
  description: "A runSeam scripts key matches no request name and no model key of the machine, or a createScriptedExecutors key names no request.",
  when: "a `runSeam` `scripts` key matches no request name and no model key of that machine; a `createScriptedExecutors` key names no request",
  docs: "a `runSeam` `scripts` key matches no request name and no model key of that machine (followed across files); a `createScriptedExecutors` `text` / `decisions` key names no request of the machines it serves",
  quickFix: "change to the nearest name",
  run: ({ calls, file, requestNames }) => [...calls.flatMap((call) => scriptsKeys(call, requestNames)), ...scriptedExecutorKeys(calls, file, requestNames)],
};

/** runSeam's `scripts` keys: each a request name or a model key of the machine. */
function scriptsKeys(call: EvalCall, requestNames: EvalFile["requestNames"]): Finding[] {
  const machine = call.machine;
  const names = machine && call.api === "runSeam" ? requestNames(machine) : undefined;
  if (!machine || !names) return [];
  const out: Finding[] = [];
  for (const key of call.scripts) {
    if (names.requests.has(key.text) || names.models.has(key.text)) continue;
    out.push(findingWithNearest("unknown-script-key", `scripts key "${key.text}" matches no request name and no model key of ${machineLabel(machine)}.`, key, [...names.requests, ...names.models]));
  }
  return out;
}

/** The keys of each createScriptedExecutors call, against the machines of the eval calls it is handed to. */
function scriptedExecutorKeys(calls: EvalCall[], file: string, requestNames: EvalFile["requestNames"]): Finding[] {
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
      const names = requestNames(m!);
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
