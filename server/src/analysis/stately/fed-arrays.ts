// A local list an eval fills from one machine's run, the idiom of upstream's evals docs and tests:
//   const statePath: string[] = [];
//   await runAgent(machine, { onTransition: (snapshot) => statePath.push(String(snapshot.value)) });
//   matchesTrajectory(statePath, ["drafting", "sent"]);
// also `createActor(machine).subscribe((s) => path.push(s.value))` and inspection (`inspect: (e) =>
// events.push(e.event.type)`). The list counts as that machine's state path (or event log) only when it
// provably is: an empty const array whose every push is such an item from such a callback of one machine,
// and whose other uses only read it. Anything else is not judged.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import { lookupDeclaration, type Parsed } from "../resolve/declarations";
import { calleeName, isFunctionLike, unwrap } from "../util/ts-nodes";
import { constDeclarationOf, usesOf, useParent } from "../util/uses";
import type { StatelyHost } from "./host";
import type { MachineDef } from "./model";

export interface FedList {
  machine: MachineDef;
  kind: "states" | "events";
}

/** Array methods that can put items in a list other than by `push`. */
const MUTATORS = new Set(["unshift", "splice", "fill", "copyWithin", "concat"]);
/** Calls that only read a list handed to them. */
const READERS = new Set(["matchesTrajectory", "expect", "deepEqual", "deepStrictEqual", "notDeepEqual", "notDeepStrictEqual", "equal", "strictEqual", "ok", "log", "info", "debug", "warn", "error", "stringify", "String"]);

/** What `actual` (a matchesTrajectory argument) holds, when it is a list filled as above. */
export function fedList(x: StatelyHost, at: Parsed, actual: ts.Node, machineOf: MachineOf): FedList | undefined {
  const node = unwrap(actual);
  if (!ts.isIdentifier(node)) return undefined;
  const decl = constDeclarationOf(node);
  const init = decl?.initializer && unwrap(decl.initializer);
  if (!decl || !init || !ts.isArrayLiteralExpression(init) || init.elements.length) return undefined;
  let fed: FedList | undefined;
  for (const use of usesOf(decl)) {
    const { parent, child } = useParent(use);
    if (ts.isPropertyAccessExpression(parent) && parent.expression === child) {
      const call = parent.parent;
      if (parent.name.text === "push" && ts.isCallExpression(call) && call.expression === parent) {
        for (const arg of call.arguments) {
          const item = pushedItem(x, at, arg, machineOf);
          if (!item || (fed && (item.machine !== fed.machine || item.kind !== fed.kind))) return undefined;
          fed = item;
        }
        continue;
      }
      if (MUTATORS.has(parent.name.text) || isAssigned(parent)) return undefined;
      continue; // a read: length, map, join, includes, at, slice, ...
    }
    if (ts.isElementAccessExpression(parent) && parent.expression === child) {
      if (isAssigned(parent)) return undefined;
      continue;
    }
    if (ts.isCallExpression(parent) && parent.expression !== child && READERS.has(calleeName(parent) ?? "")) continue;
    if (ts.isSpreadElement(parent)) continue; // copied into another list
    return undefined; // handed on, aliased or written: what it holds is not known
  }
  return fed;
}

export type MachineOf = (x: StatelyHost, at: Parsed, expr: ts.Node) => MachineDef | undefined;

function isAssigned(target: ts.Node): boolean {
  const { parent, child } = useParent(target);
  return ts.isBinaryExpression(parent) && parent.left === child && parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
}

/** `snapshot.value` (also `String(...)`, `${...}`) of a state callback's snapshot, `event.type` of its
 *  event, an inspection event's `e.snapshot.value` or `e.event.type`. */
function pushedItem(x: StatelyHost, at: Parsed, arg: ts.Node, machineOf: MachineOf): FedList | undefined {
  const expr = stringified(unwrap(arg));
  if (!ts.isPropertyAccessExpression(expr)) return undefined;
  const leaf = expr.name.text;
  const holder = unwrap(expr.expression);
  // `p.value` / `p.type`, or `p.snapshot.value` / `p.event.type`
  const viaInspection = ts.isPropertyAccessExpression(holder);
  const param = viaInspection ? unwrap(holder.expression) : holder;
  if (!ts.isIdentifier(param)) return undefined;
  const decl = lookupDeclaration(param);
  if (!decl || !ts.isParameter(decl) || !isFunctionLike(decl.parent)) return undefined;
  const fn = decl.parent;
  const index = fn.parameters.indexOf(decl);
  const site = callbackSite(fn);
  if (!site) return undefined;
  let kind: FedList["kind"] | undefined;
  if (viaInspection) {
    const middle = (holder as ts.PropertyAccessExpression).name.text;
    if (site.role === "inspect" && index === 0) kind = middle === "snapshot" && leaf === "value" ? "states" : middle === "event" && leaf === "type" ? "events" : undefined;
  } else if (site.role === "transition" || site.role === "subscribe") {
    if (index === 0 && leaf === "value") kind = "states";
    else if (index === 1 && leaf === "type" && site.role === "transition") kind = "events";
  }
  if (!kind) return undefined;
  const machine = machineOf(x, at, site.machineExpr);
  return machine ? { machine, kind } : undefined;
}

/** `String(e)` and `${e}` → e. */
function stringified(expr: ts.Node): ts.Node {
  if (ts.isCallExpression(expr) && calleeName(expr) === "String" && ts.isIdentifier(unwrap(expr.expression)) && expr.arguments.length === 1) return unwrap(expr.arguments[0]!);
  if (ts.isTemplateExpression(expr) && expr.head.text === "" && expr.templateSpans.length === 1 && expr.templateSpans[0]!.literal.text === "") return unwrap(expr.templateSpans[0]!.expression);
  return expr;
}

/** Where a callback is given: runAgent / runSeam `onTransition` or `inspect`, createActor's `inspect`,
 *  or `actor.subscribe(fn)` / `subscribe({ next: fn })` on an actor of createActor(machine). */
function callbackSite(fn: ts.SignatureDeclaration): { role: "transition" | "subscribe" | "inspect"; machineExpr: ts.Node } | undefined {
  const { parent, child } = useParent(fn);
  // `{ onTransition: (s) => ... }` or `{ onTransition(s) { ... } }`
  const prop = ts.isMethodDeclaration(fn) ? fn : ts.isPropertyAssignment(parent) && parent.initializer === child ? parent : undefined;
  if (prop) {
    const key = ts.isIdentifier(prop.name) ? prop.name.text : undefined;
    const options = useParent(prop.parent);
    if (!key || !ts.isObjectLiteralExpression(prop.parent) || !ts.isCallExpression(options.parent) || options.parent.arguments[1] !== options.child) {
      return key === "next" ? subscribeSite(prop.parent) : undefined;
    }
    const call = options.parent;
    const name = calleeName(call);
    const machineExpr = call.arguments[0];
    if (!machineExpr) return undefined;
    if ((name === "runAgent" || name === "runSeam") && (key === "onTransition" || key === "inspect")) return { role: key === "inspect" ? "inspect" : "transition", machineExpr };
    if (name === "createActor" && key === "inspect") return { role: "inspect", machineExpr };
    return undefined;
  }
  if (ts.isCallExpression(parent) && parent.arguments[0] === child) return subscribeSite(child);
  return undefined;
}

/** `actor.subscribe(arg)` with `actor` a const of `createActor(machine, ...)`. */
function subscribeSite(arg: ts.Node): { role: "subscribe"; machineExpr: ts.Node } | undefined {
  const { parent, child } = useParent(arg);
  if (!ts.isCallExpression(parent) || parent.arguments[0] !== child) return undefined;
  const callee = unwrap(parent.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "subscribe") return undefined;
  let receiver = unwrap(callee.expression);
  if (ts.isIdentifier(receiver)) {
    const decl = constDeclarationOf(receiver);
    if (!decl?.initializer) return undefined;
    receiver = unwrap(decl.initializer);
  }
  if (!ts.isCallExpression(receiver) || calleeName(receiver) !== "createActor" || !receiver.arguments[0]) return undefined;
  return { role: "subscribe", machineExpr: receiver.arguments[0] };
}
