// Can anything start a flow that has no trigger? Such a flow starts only by hand: `turn({ start: { flow } })`
// or another flow's `then: { flow }`. That can be ruled out only when the whole story is in this file:
// the flow is run by agents of this file that are used nowhere but as the receiver of their own
// `turn` calls, neither the flow nor its agents are exported or handed elsewhere, and no start or
// `{ flow }` jump here names it (or could name any flow).
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { lookupDeclaration } from "../../resolve/declarations";
import { nearestName } from "../../util/edit-distance";
import { bindingNameNode, hasModifier, propertyNameText } from "../../util/ts-nodes";
import type { AgentModel, FlowModel, NextModel, TurnSite } from "../model";
import { forEachNext } from "../walk";
import { walkDescendants } from "../../util/walk";

/** A complete flow with an id and no triggers (a module function, not a closure made per call:
 *  util/shapes.ts). */
const isUntriggered = (f: FlowModel): boolean => !!f.id && f.complete && f.triggersStatic && f.triggers.length === 0;

export function markStartable(sf: ts.SourceFile, flows: FlowModel[], agents: AgentModel[], sites: TurnSite[]): void {
  const candidates = flows.filter(isUntriggered);
  if (candidates.length === 0) return;
  const uses = new UseIndex(sf);
  for (const flow of candidates) flow.startable = !provablyUnstarted(flow, agents, sites, uses);
}

function provablyUnstarted(flow: FlowModel, agents: AgentModel[], sites: TurnSite[], uses: UseIndex): boolean {
  const owners = agents.filter((a) => a.flows.some((e) => e.flow === flow));
  if (owners.length === 0) return false;
  const id = flow.id!.text;
  const ids = owners.flatMap((a) => a.flows.flatMap((e) => (e.flow.id ? [e.flow.id.text] : [])));
  // a name that is no flow (unknown-flow says so) counts as starting its likely fix: one typo, one finding
  const names = (name: string) => name === id || (!ids.includes(name) && nearestName(name, ids) === id);
  for (const agent of owners) {
    if (!agent.flowsStatic || !uses.onlyTurnReceiver(agent.node)) return false;
    let started = false;
    for (const entry of agent.flows) {
      forEachJump(entry.flow, (next) => {
        if (next.kind === "dynamic" || (next.kind === "flow" && (!next.flow || names(next.flow.text)))) started = true;
      });
    }
    if (started) return false;
  }
  if (!uses.onlyInFlowsOf(flow.node, owners)) return false;
  return !sites.some((s) => s.agent && owners.includes(s.agent) && (s.startsUnknown || (s.startFlow && names(s.startFlow.text))));
}

/** Calls `visit` for every jump of a flow; a part that cannot be read is a dynamic jump. */
function forEachJump(flow: FlowModel, visit: (next: NextModel) => void): void {
  if (!flow.stepsStatic) visit({ kind: "dynamic" });
  for (const step of flow.steps) {
    if (!step.complete || !step.branchesStatic) visit({ kind: "dynamic" });
    forEachNext(step, visit);
  }
}

/** Where the consts of a file are used (one walk, on demand). */
class UseIndex {
  private byName?: Map<string, ts.Identifier[]>;

  constructor(private readonly sf: ts.SourceFile) {}

  /** The call is `const x = <call>` (not exported), and `x` is used only as `x.turn(...)` / `x.turnStream(...)`. */
  onlyTurnReceiver(call: ts.Node): boolean {
    const uses = this.usesOfBinding(call);
    return !!uses && uses.every((id) => {
      const access = id.parent;
      return ts.isPropertyAccessExpression(access) && access.expression === id && (access.name.text === "turn" || access.name.text === "turnStream") && ts.isCallExpression(access.parent) && access.parent.expression === access;
    });
  }

  /** The flow is written inline in an owner's `flows: [...]`, or is a const (not exported) used only
   *  there. */
  onlyInFlowsOf(call: ts.Node, owners: AgentModel[]): boolean {
    const inFlows = (n: ts.Node) => {
      const list = n.parent;
      const prop = list?.parent;
      const options = prop?.parent;
      return !!list && ts.isArrayLiteralExpression(list) && !!prop && ts.isPropertyAssignment(prop) && propertyNameText(prop.name) === "flows" && !!options && owners.some((a) => a.node.arguments[0] === options);
    };
    if (!bindingNameNode(call)) return inFlows(call);
    const uses = this.usesOfBinding(call);
    return !!uses && uses.every(inFlows);
  }

  /** The identifiers that refer to the const a call initializes; undefined when it is exported or not a const. */
  private usesOfBinding(call: ts.Node): ts.Identifier[] | undefined {
    const name = bindingNameNode(call);
    const decl = name?.parent;
    if (!name || !decl || !ts.isVariableDeclaration(decl)) return undefined;
    const statement = decl.parent?.parent;
    if (!(decl.parent.flags & ts.NodeFlags.Const) || (statement && ts.isVariableStatement(statement) && hasModifier(statement, ts.SyntaxKind.ExportKeyword))) return undefined;
    return (this.index().get(name.text) ?? []).filter((id) => id !== name && lookupDeclaration(id) === decl);
  }

  private index(): Map<string, ts.Identifier[]> {
    if (this.byName) return this.byName;
    const map = new Map<string, ts.Identifier[]>();
    walkDescendants(this.sf, (n) => {
      if (ts.isIdentifier(n) && isValueUse(n)) {
        const list = map.get(n.text);
        if (list) list.push(n);
        else map.set(n.text, [n]);
      }
    });
    return (this.byName = map);
  }
}

/** An identifier that may refer to a binding: not a property name, a member name or a type name. */
function isValueUse(id: ts.Identifier): boolean {
  const p = id.parent;
  if (!p) return false;
  if (ts.isPropertyAccessExpression(p)) return p.expression === id;
  if (ts.isQualifiedName(p)) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) && p.name === id) return false;
  if (ts.isBindingElement(p) && p.propertyName === id) return false;
  if ((ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.propertyName === id) return false;
  if (ts.isTypeReferenceNode(p)) return false;
  return true;
}
