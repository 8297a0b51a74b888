// A flow's `steps`: each step is told apart by which property it has — `prompt` / `collect` (talk),
// `say`, `do` (+ `with`, `onFail`), `wait` (a duration, or `{ event, upTo }`), `if` — and may carry
// `then`, `else`, `branches` (`{ when | if, then }`), `ask`, `tools` and `instructions`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import type { ObjectView } from "../../resolve/values";
import { isMissing } from "../../util/ts-nodes";
import type { BranchModel, FlowModel, PredModel, StepKind, StepModel } from "../model";
import type { Reader } from "../reader";
import type { FalaiHost } from "./host";
import { readNext } from "./next";
import { keyStr, readPred } from "./predicates";

export function readSteps(host: FalaiHost, node: ts.Node, flow: FlowModel): void {
  const r = host.reader;
  const { items, complete } = r.elements(node);
  if (!complete) flow.stepsStatic = false;
  const flowQual = flow.symbolId.slice(flow.symbolId.indexOf("#flow:") + 6);
  for (const item of items) {
    const view = r.object(item);
    if (view) flow.steps.push(readStep(host, view, flow, flowQual));
    else flow.stepsStatic = false;
  }
}

function readStep(host: FalaiHost, view: ObjectView, flow: FlowModel, flowQual: string): StepModel {
  const r = host.reader;
  const e = view.entries;
  const get = (key: string) => e.get(key)?.value;
  const index = flow.steps.length;
  const id = r.str(get("id"));
  const waitNode = get("wait");
  const waitValue = waitNode ? r.local(waitNode) : undefined;
  const waitObject = waitValue && ts.isObjectLiteralExpression(waitValue) ? r.object(waitValue) : undefined;
  const step: StepModel = {
    symbolId: host.claim("step", `${flowQual}.${id?.text ?? index}`, view.node.getStart(r.sf)),
    index,
    id,
    range: r.range(view.node),
    kind: stepKind(e, !!waitObject),
    prompt: r.text(get("prompt")),
    say: r.text(get("say")),
    collect: r.strList(get("collect")),
    askKeys: keysOf(r, get("ask")),
    tools: r.strList(get("tools")),
    do: r.str(get("do")),
    branches: [],
    branchesStatic: true,
    instructionPreds: readInstructionPreds(r, get("instructions")),
    complete: view.complete,
  };
  if (waitObject) {
    step.waitEvent = r.str(waitObject.entries.get("event")?.value);
    step.upTo = r.duration(waitObject.entries.get("upTo")?.value);
  } else if (waitNode) step.wait = r.duration(waitNode);
  if (e.has("if")) step.if = readPred(r, get("if"));
  step.then = readNext(r, get("then"));
  step.else = readNext(r, get("else"));
  step.onFail = readNext(r, get("onFail"));
  const branches = get("branches");
  if (branches && !isMissing(branches)) {
    const { items, complete } = r.elements(branches);
    if (!complete) step.branchesStatic = false;
    for (const item of items) {
      const b = r.object(item);
      if (b) step.branches.push(readBranch(r, b));
      else step.branchesStatic = false;
    }
  }
  return step;
}

function stepKind(e: ObjectView["entries"], waitsForEvent: boolean): StepKind {
  if (e.has("prompt") || e.has("collect")) return "talk";
  if (e.has("say")) return "say";
  if (e.has("do")) return "do";
  if (e.has("wait")) return waitsForEvent ? "wait-event" : "wait";
  if (e.has("if")) return "if";
  return "unknown";
}

function readBranch(r: Reader, view: ObjectView): BranchModel {
  const e = view.entries;
  const branch: BranchModel = {
    range: r.range(view.node),
    when: r.text(e.get("when")?.value),
    hasWhen: e.has("when"),
    hasIf: e.has("if"),
    then: readNext(r, e.get("then")?.value),
  };
  if (branch.hasIf) branch.if = readPred(r, e.get("if")!.value);
  if (!view.complete) branch.then ??= { kind: "dynamic" };
  return branch;
}

/** The keys of an object literal (a talk step's `ask: { field: "..." }`). */
function keysOf(r: Reader, node: ts.Node | undefined) {
  const view = r.object(node);
  if (!view) return [];
  return [...view.entries.values()].flatMap((entry) => {
    const name = (entry.node as ts.ObjectLiteralElementLike).name;
    return name && !isMissing(name) && !ts.isComputedPropertyName(name) ? [keyStr(r, name, entry.name)] : [];
  });
}

/** The JSON predicates of `instructions: [{ if, ... }]`. */
export function readInstructionPreds(r: Reader, node: ts.Node | undefined): PredModel[] {
  if (!node) return [];
  const out: PredModel[] = [];
  for (const item of r.elements(node).items) {
    const pred = readPred(r, r.object(item)?.entries.get("if")?.value);
    if (pred) out.push(pred);
  }
  return out;
}
