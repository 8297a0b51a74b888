// A flow's `steps`: each step is told apart by which property it has — `prompt` / `collect` (talk),
// `say`, `do` (+ `with`, `onFail`), `wait` (a duration, or `{ event, upTo }`), `if` — and may carry
// `then`, `else`, `branches` (`{ when | if, then }`), `ask`, `tools` and `instructions`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { isMissing } from "../../util/ts-nodes";
import type { BranchModel, FlowModel, PredModel, StepKind, StepModel, Str } from "../model";
import type { Props } from "../props";
import { NONE, type Reader } from "../reader";
import type { FalaiHost } from "./host";
import { readNext } from "./next";
import { keyStr, readPred } from "./predicates";

export function readSteps(host: FalaiHost, node: ts.Node, flow: FlowModel): void {
  const r = host.reader;
  const { items, complete } = r.elements(node);
  if (!complete) flow.stepsStatic = false;
  const flowQual = flow.symbolId.slice(flow.symbolId.indexOf("#flow:") + 6);
  for (const item of items) {
    const props = r.props(item);
    if (props) flow.steps.push(readStep(host, props, flow, flowQual));
    else flow.stepsStatic = false;
  }
}

function readStep(host: FalaiHost, props: Props, flow: FlowModel, flowQual: string): StepModel {
  const r = host.reader;
  const index = flow.steps.length;
  const id = r.str(props.get("id"));
  const waitNode = props.get("wait");
  const waitValue = waitNode ? r.local(waitNode) : undefined;
  const waitObject = waitValue && ts.isObjectLiteralExpression(waitValue) ? r.props(waitValue) : undefined;
  // every field set up front: one object shape for all steps (checks and outputs read thousands)
  const step: StepModel = {
    symbolId: host.claim("step", `${flowQual}.${id?.text ?? index}`, props.node),
    index,
    id,
    range: r.range(props.node),
    kind: stepKind(props, !!waitObject),
    prompt: r.text(props.get("prompt")),
    say: r.text(props.get("say")),
    collect: r.strList(props.get("collect")),
    askKeys: keysOf(r, props.get("ask")),
    asksFields: props.has("collect") || props.has("ask"),
    tools: r.strList(props.get("tools")),
    do: r.str(props.get("do")),
    wait: waitObject || !waitNode ? undefined : r.duration(waitNode),
    waitEvent: waitObject ? r.str(waitObject.get("event")) : undefined,
    upTo: waitObject ? r.duration(waitObject.get("upTo")) : undefined,
    if: props.has("if") ? readPred(r, props.get("if")) : undefined,
    then: readNext(r, props.get("then")),
    else: readNext(r, props.get("else")),
    onFail: readNext(r, props.get("onFail")),
    branches: NONE,
    branchesStatic: true,
    instructionPreds: readInstructionPreds(r, props.get("instructions")),
    complete: props.complete,
  };
  const branches = props.get("branches");
  if (branches && !isMissing(branches)) {
    const { items, complete } = r.elements(branches);
    if (!complete) step.branchesStatic = false;
    step.branches = [];
    for (const item of items) {
      const b = r.props(item);
      if (b) step.branches.push(readBranch(r, b));
      else step.branchesStatic = false;
    }
  }
  return step;
}

function stepKind(e: Props, waitsForEvent: boolean): StepKind {
  if (e.has("prompt") || e.has("collect")) return "talk";
  if (e.has("say")) return "say";
  if (e.has("do")) return "do";
  if (e.has("wait")) return waitsForEvent ? "wait-event" : "wait";
  if (e.has("if")) return "if";
  return "unknown";
}

function readBranch(r: Reader, props: Props): BranchModel {
  const hasIf = props.has("if");
  const branch: BranchModel = {
    range: r.range(props.node),
    when: r.text(props.get("when")),
    hasWhen: props.has("when"),
    hasIf,
    if: hasIf ? readPred(r, props.get("if")) : undefined,
    then: readNext(r, props.get("then")),
  };
  if (!props.complete) branch.then ??= { kind: "dynamic" };
  return branch;
}

/** The keys of an object literal (a talk step's `ask: { field: "..." }`). */
function keysOf(r: Reader, node: ts.Node | undefined): Str[] {
  if (!node) return NONE;
  const props = r.props(node);
  const out: Str[] = [];
  for (const [key, p] of props?.byName ?? []) if (p.name && !isMissing(p.name) && !ts.isComputedPropertyName(p.name)) out.push(keyStr(r, p.name, key));
  return out;
}

/** The JSON predicates of `instructions: [{ if, ... }]`. */
export function readInstructionPreds(r: Reader, node: ts.Node | undefined): PredModel[] {
  if (!node) return NONE;
  const out: PredModel[] = [];
  for (const item of r.elements(node).items) {
    const pred = readPred(r, r.props(item)?.get("if"));
    if (pred) out.push(pred);
  }
  return out;
}
