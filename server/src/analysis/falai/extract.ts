// Reads @falai/agent definitions out of a file: `falai().fields({...})`, `f.flow({...})`, `f.agent({...})`,
// `f.tool(...)` / `f.action(...)`, and `agent.turn(...)` call sites. Identifiers are followed through
// consts in scope, arrays, spreads and (through the workspace) imports; what cannot be known statically
// is marked so, and the checks stay silent about it.
//
// Extraction runs in a fixed order per file (field sets, tools and actions, flows, agents, turn sites) so
// symbol ids are the same whichever file asked for the extraction.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import { reportAnalysisError } from "../errors";
import type { ExtractContext } from "../library";
import type { SourceRange } from "../types";
import { basicContext } from "./basicContext";
import { parseDuration } from "./duration";
import { FileState, type Resolved } from "./fileState";
import {
  Str, type AgentFlowEntry, type AgentModel, type BranchModel, type BuilderRef, type DurationValue, type FalaiFileModel, type FieldModel,
  type FieldSetModel, type FlowModel, type Registration, type ScriptKeyRef, type StepModel, type TriggerModel, type TurnSite,
} from "./model";
import { calledMethod, findProperty, isMissing, isStringLike, propertiesOf, propertyName, propertyValue, strip } from "./syntax";

const MAX_DEPTH = 12;

const keyOf = (node: ts.Node) => `${node.pos}:${node.end}:${node.kind}`;

/** One analysis: the file asked for, plus any file its imports led to. */
export class Session {
  private readonly states = new Map<string, FileState>();
  private readonly extractors = new Map<string, FileExtractor>();
  readonly root: FileState;

  constructor(rootCtx: ExtractContext) {
    this.root = this.stateFor(rootCtx);
  }

  stateFor(ctx: ExtractContext): FileState {
    let state = this.states.get(ctx.file);
    if (!state) {
      state = new FileState(ctx, (from, id) => this.crossFile(from, id));
      this.states.set(ctx.file, state);
    }
    return state;
  }

  /** The extractor of a file, run to completion unless it is already running (an import cycle). */
  extractorFor(state: FileState): FileExtractor {
    let ex = this.extractors.get(state.file);
    if (!ex) {
      ex = new FileExtractor(this, state);
      this.extractors.set(state.file, ex);
      ex.run();
    }
    return ex;
  }

  model(): FalaiFileModel {
    return this.extractorFor(this.root).model();
  }

  private crossFile(from: FileState, id: ts.Identifier): Resolved | undefined {
    const wrapped = from.wrap(id);
    if (!wrapped) return undefined;
    let resolved;
    try {
      resolved = from.ctx.resolveIdentifier(wrapped);
    } catch (error) {
      reportAnalysisError(error, `falai: resolving ${id.text} in ${from.file}`);
      return undefined;
    }
    if (!resolved) return undefined;
    const ctx = resolved.file === from.file ? from.ctx : from.ctx.contextFor(resolved.file) ?? basicContext(resolved.file, resolved.sourceFile);
    const state = this.stateFor(ctx);
    let node: ts.Node = resolved.node.compilerNode;
    if (state.sf !== resolved.sourceFile.compilerNode) {
      // The workspace handed out a different parse of the same file: find the same node in ours by span.
      node = findBySpan(state.sf, node.pos, node.end, node.kind) ?? node;
      if (node.getSourceFile() !== state.sf) return undefined;
    }
    if (ts.isVariableDeclaration(node)) {
      if (!node.initializer) return undefined;
      node = node.initializer;
    } else if (ts.isExportAssignment(node)) node = node.expression;
    return { state, node };
  }
}

function findBySpan(sf: ts.SourceFile, pos: number, end: number, kind: ts.SyntaxKind): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (n: ts.Node): void => {
    if (found || n.pos > pos || n.end < end) return;
    if (n.pos === pos && n.end === end && n.kind === kind) {
      found = n;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** The flow, agent and builder entities of one file. */
export class FileExtractor {
  private readonly fieldSets = new Map<string, FieldSetModel>();
  private readonly builderRegs = new Map<string, Registration>();
  private readonly flows = new Map<string, FlowModel>();
  private readonly agents = new Map<string, AgentModel>();
  private readonly registrations: Registration[] = [];
  private readonly turnSites: TurnSite[] = [];
  private readonly durations: DurationValue[] = [];
  private readonly scriptKeys: ScriptKeyRef[] = [];
  private readonly usedIds = new Set<string>();

  constructor(private readonly session: Session, private readonly state: FileState) {}

  run(): void {
    const calls = this.state.calls;
    for (const c of calls) if (calledMethod(c) === "fields") this.guard(() => this.fieldSetCall(c));
    for (const c of calls) {
      const m = calledMethod(c);
      if (m === "tool" || m === "action") this.guard(() => this.builderRegistration(c, m));
    }
    for (const c of calls) if (calledMethod(c) === "flow") this.guard(() => this.flowCall(c));
    for (const c of calls) if (calledMethod(c) === "agent") this.guard(() => this.agentCall(c));
    for (const c of calls) {
      const m = calledMethod(c);
      if (m === "turn" || m === "turnStream") this.guard(() => this.turnCall(c, m));
      else if (m === "advance") this.guard(() => this.clockAdvance(c));
    }
    if (this.state.envelopes.length) this.guard(() => this.understandEnvelopes());
  }

  model(): FalaiFileModel {
    return {
      file: this.state.file,
      fieldSets: [...this.fieldSets.values()],
      flows: [...this.flows.values()],
      agents: [...this.agents.values()],
      registrations: this.registrations,
      turnSites: this.turnSites,
      scriptKeys: this.scriptKeys,
      durations: this.durations,
    };
  }

  fieldSetAt(node: ts.Node): FieldSetModel | undefined {
    return this.fieldSets.get(keyOf(node));
  }
  flowAt(node: ts.Node): FlowModel | undefined {
    return this.flows.get(keyOf(node));
  }
  agentAt(node: ts.Node): AgentModel | undefined {
    return this.agents.get(keyOf(node));
  }
  registrationAt(node: ts.Node): Registration | undefined {
    return this.builderRegs.get(keyOf(node));
  }

  /** A broken file must never stop the rest of the extraction (a failure is still a bug: it is reported). */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      reportAnalysisError(error, `falai extraction in ${this.state.file}`); // partial results: this entity is skipped
    }
  }

  private claim(kind: string, base: string, offset: number): string {
    let key = `${kind}:${base}`;
    if (this.usedIds.has(key)) key = `${key}@${offset}`;
    this.usedIds.add(key);
    return `${this.state.file}#${key}`;
  }

  // ---- values -------------------------------------------------------------------------------------

  /** Follows identifiers (consts in scope, imports) to the expression they stand for. */
  private valueOf(state: FileState, node: ts.Node | undefined, depth = 0): Resolved | undefined {
    if (!node || depth > MAX_DEPTH) return undefined;
    const e = strip(node);
    if (ts.isIdentifier(e)) {
      const r = state.resolve(e);
      return r ? this.valueOf(r.state, r.node, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      // `flows.triagem` where `flows` is an object literal
      const target = this.valueOf(state, e.expression, depth + 1);
      if (target && ts.isObjectLiteralExpression(target.node)) {
        const value = propertyValue(findProperty(target.node, e.name.text));
        return value ? this.valueOf(target.state, value, depth + 1) : undefined;
      }
      return { state, node: e };
    }
    return { state, node: e };
  }

  /** Like valueOf, but only within this file (spec objects must live where their ranges are reported). */
  private localValue(node: ts.Node | undefined): ts.Node | undefined {
    if (!node) return undefined;
    const e = strip(node);
    if (!ts.isIdentifier(e) && !ts.isPropertyAccessExpression(e)) return e;
    const v = this.valueOf(this.state, e);
    return v && v.state === this.state ? v.node : undefined;
  }

  private str(node: ts.Node | undefined): Str | undefined {
    if (!node) return undefined;
    const e = this.localValue(node);
    if (!e || !isStringLike(e)) return undefined;
    const range = this.state.contents(e);
    const unterminated = (e as ts.LiteralLikeNode).isUnterminated === true;
    // one-line literals (nearly all): the literal's range is the contents' plus the quotes, derived on demand
    const literal = range.startLine === range.endLine && !unterminated ? undefined : this.state.range(e);
    return new Str(e.text, range, literal, unterminated || undefined);
  }

  /** A string or a list of strings (`collect: "nome"` or `collect: ["nome", "empresa"]`). */
  private strList(node: ts.Node | undefined): Str[] {
    if (!node) return [];
    const e = this.localValue(node);
    if (!e) return [];
    if (isStringLike(e)) return [this.str(e)!];
    if (!ts.isArrayLiteralExpression(e)) return [];
    const out: Str[] = [];
    for (const el of e.elements) {
      if (ts.isSpreadElement(el)) out.push(...this.strList(el.expression));
      else {
        const s = this.str(el);
        if (s) out.push(s);
      }
    }
    return out;
  }

  private text(node: ts.Node | undefined): string | undefined {
    const e = node && this.localValue(node);
    if (!e) return undefined;
    if (isStringLike(e)) return e.text;
    if (ts.isTemplateExpression(e)) return e.getText(this.state.sf).slice(1, -1);
    return undefined;
  }

  private duration(node: ts.Node | undefined): DurationValue | undefined {
    if (!node || isMissing(node)) return undefined;
    const e = this.localValue(node);
    if (!e) return undefined;
    const full = this.state.range(e);
    if (isStringLike(e)) return e.isUnterminated ? undefined : { text: e.text, ms: parseDuration(e.text), full };
    if (ts.isNumericLiteral(e)) return { text: e.text, ms: parseDuration(Number(e.text)), full };
    if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) {
      return { text: e.getText(this.state.sf), ms: undefined, full };
    }
    return undefined;
  }

  private objectArg(call: ts.CallExpression, index = 0): ts.ObjectLiteralExpression | undefined {
    const v = this.localValue(call.arguments[index]);
    return v && ts.isObjectLiteralExpression(v) ? v : undefined;
  }

  private prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
    return propertyValue(findProperty(obj, name));
  }

  // ---- builders -----------------------------------------------------------------------------------

  private isFalaiValue(state: FileState, node: ts.Node, depth = 0): boolean {
    if (state.isFalaiCall(node)) return true;
    const e = strip(node);
    if (ts.isIdentifier(e) && depth < MAX_DEPTH) {
      const r = state.resolve(e);
      return !!r && this.isFalaiValue(r.state, r.node, depth + 1);
    }
    return false;
  }

  /** What `f` is in `f.flow(...)`: a field set builder (maybe in another file), a bare `falai()`, or unknown. */
  private builderOf(receiver: ts.Node): BuilderRef | undefined {
    const v = this.valueOf(this.state, receiver);
    if (!v) return undefined;
    const { state, node } = v;
    if (state.isFalaiCall(node)) return { known: true };
    if (ts.isCallExpression(node) && calledMethod(node) === "fields") {
      const owner = state === this.state ? this : this.session.extractorFor(state);
      const fieldSet = owner.fieldSetAt(node);
      return fieldSet ? { known: true, fieldSet } : undefined;
    }
    return undefined;
  }

  // ---- field sets ---------------------------------------------------------------------------------

  private fieldSetCall(call: ts.CallExpression): void {
    const callee = call.expression as ts.PropertyAccessExpression;
    if (!this.isFalaiValue(this.state, callee.expression)) return;
    const varName = declaredName(call);
    const name = varName ?? "fields";
    const symbolId = this.claim("fieldSet", name, call.getStart(this.state.sf));
    const obj = this.objectArg(call);
    const nameNode = varNameNode(call) ?? callee.name;
    const set: FieldSetModel = { symbolId, name, file: this.state.file, nameRange: this.state.range(nameNode), range: this.state.range(declarationOf(call)), fields: [], complete: !!obj, node: call };
    if (obj) {
      this.readFields(obj, set, 0);
      set.insertion = this.insertionPoint(obj);
    }
    this.fieldSets.set(keyOf(call), set);
  }

  private readFields(obj: ts.ObjectLiteralExpression, set: FieldSetModel, depth: number, seen = new Set<string>()): void {
    for (const p of obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        const inner = this.localValue(p.expression);
        if (inner && ts.isObjectLiteralExpression(inner) && depth < MAX_DEPTH) this.readFields(inner, set, depth + 1, seen);
        else set.complete = false;
        continue;
      }
      const name = propertyName(p.name);
      if (name === undefined || !p.name || isMissing(p.name)) {
        set.complete = false;
        continue;
      }
      const field: FieldModel = {
        name,
        symbolId: `${this.state.file}#field:${set.name}.${name}`,
        nameRange: isStringLike(p.name) ? this.state.contents(p.name) : this.state.range(p.name),
        range: this.state.range(p),
        typeStatic: false,
        hasValues: false,
      };
      const spec = this.localValue(propertyValue(p));
      if (spec && ts.isObjectLiteralExpression(spec)) {
        const typeNode = this.prop(spec, "type");
        field.type = this.str(typeNode);
        field.typeStatic = !typeNode || !!field.type;
        field.ask = this.text(this.prop(spec, "ask"));
        field.description = this.text(this.prop(spec, "description"));
        const values = this.prop(spec, "values");
        field.hasValues = !!values && !isMissing(values);
        if (values) {
          const list = this.localValue(values);
          if (list && ts.isArrayLiteralExpression(list)) field.values = this.strList(list).map((s) => s.text);
        }
      }
      // a later key with the same name replaces the earlier one, as at run time
      if (seen.has(name)) set.fields.splice(set.fields.findIndex((f) => f.name === name), 1);
      seen.add(name);
      set.fields.push(field);
    }
  }

  /** Where a new field goes: after the last property, keeping the object's comma and indentation style. */
  private insertionPoint(obj: ts.ObjectLiteralExpression): FieldSetModel["insertion"] {
    const sf = this.state.sf;
    const text = this.state.text;
    const props = obj.properties;
    const open = obj.getStart(sf);
    if (props.length === 0) {
      const at = open + 1;
      return { range: this.state.at(at, at), prefix: " ", suffix: " " };
    }
    const last = props[props.length - 1];
    const lastStart = last.getStart(sf);
    const lineStart = text.lastIndexOf("\n", lastStart - 1) + 1;
    const indent = text.slice(lineStart, lastStart);
    const multiline = /^\s*$/.test(indent) && text.lastIndexOf("\n", lastStart) > open;
    if (props.hasTrailingComma) {
      const comma = text.indexOf(",", last.end);
      const at = comma >= 0 ? comma + 1 : last.end;
      return multiline ? { range: this.state.at(at, at), prefix: `\n${indent}`, suffix: "," } : { range: this.state.at(at, at), prefix: " ", suffix: "," };
    }
    return multiline ? { range: this.state.at(last.end, last.end), prefix: `,\n${indent}`, suffix: "" } : { range: this.state.at(last.end, last.end), prefix: ", ", suffix: "" };
  }

  // ---- tools and actions --------------------------------------------------------------------------

  private builderRegistration(call: ts.CallExpression, kind: "tool" | "action"): void {
    const callee = call.expression as ts.PropertyAccessExpression;
    const builder = this.builderOf(callee.expression);
    if (!builder) return;
    const first = call.arguments[0];
    let nameNode: ts.Node | undefined;
    let description: string | undefined;
    const firstValue = this.localValue(first);
    if (firstValue && isStringLike(firstValue)) nameNode = firstValue;
    else if (firstValue && ts.isObjectLiteralExpression(firstValue)) {
      nameNode = this.localValue(this.prop(firstValue, "name"));
      description = this.text(this.prop(firstValue, "description"));
    }
    if (!description) {
      const second = this.objectArg(call, 1);
      if (second) description = this.text(this.prop(second, "description"));
    }
    if (!nameNode || !isStringLike(nameNode)) return;
    const reg: Registration = {
      kind,
      name: nameNode.text,
      symbolId: this.claim(kind, nameNode.text, nameNode.getStart(this.state.sf)),
      file: this.state.file,
      nameRange: this.state.contents(nameNode),
      range: this.state.range(call),
      description,
    };
    this.builderRegs.set(keyOf(call), reg);
    this.registrations.push(reg);
  }

  // ---- flows --------------------------------------------------------------------------------------

  private flowCall(call: ts.CallExpression): void {
    const callee = call.expression as ts.PropertyAccessExpression;
    const obj = this.objectArg(call);
    let builder = this.builderOf(callee.expression);
    if (!builder) {
      // `f` we cannot follow (a parameter, say): accept the call when it has a flow's shape in a falai file.
      if (!this.state.importsFalai || !obj || !findProperty(obj, "steps")) return;
      builder = { known: false };
    }
    const start = call.getStart(this.state.sf);
    const id = obj ? this.str(this.prop(obj, "id")) : undefined;
    const flow: FlowModel = {
      symbolId: this.claim("flow", id?.text || "flow", start),
      file: this.state.file,
      id,
      name: obj ? this.text(this.prop(obj, "name")) : undefined,
      range: this.state.range(call),
      builder,
      onPresent: false,
      triggers: [],
      triggersStatic: !!obj,
      steps: [],
      stepsStatic: !!obj,
      node: call,
    };
    if (obj) {
      this.readTriggers(obj, flow);
      const stepsNode = this.prop(obj, "steps");
      if (stepsNode) this.readSteps(stepsNode, flow, 0);
    }
    this.flows.set(keyOf(call), flow);
  }

  private readTriggers(obj: ts.ObjectLiteralExpression, flow: FlowModel): void {
    const onNode = this.prop(obj, "on");
    if (!onNode || isMissing(onNode)) return;
    flow.onPresent = true;
    const value = this.localValue(onNode);
    if (!value) {
      flow.triggersStatic = false;
      return;
    }
    const add = (node: ts.Node, depth: number): void => {
      const v = this.localValue(node);
      if (v && ts.isObjectLiteralExpression(v)) flow.triggers.push(this.trigger(v));
      else if (v && ts.isArrayLiteralExpression(v) && depth < MAX_DEPTH) {
        for (const el of v.elements) add(ts.isSpreadElement(el) ? el.expression : el, depth + 1);
      } else if (!v || !ts.isOmittedExpression(v)) flow.triggersStatic = false;
    };
    add(value, 0);
  }

  private trigger(obj: ts.ObjectLiteralExpression): TriggerModel {
    const t: TriggerModel = { kind: "other", range: this.state.range(obj), phrases: [], phrasesStatic: true, catchAll: false, extract: [] };
    const message = findProperty(obj, "message");
    const silence = this.prop(obj, "silence");
    const mention = this.prop(obj, "mention");
    if (message) {
      t.kind = "message";
      t.keyRange = message.name ? this.state.range(message.name) : t.range;
      const list = this.localValue(propertyValue(message));
      if (list && ts.isArrayLiteralExpression(list)) {
        const strs = this.strList(list);
        t.phrases = strs.map((s) => s.text);
        t.phrasesStatic = strs.length === list.elements.length;
        t.catchAll = list.elements.length === 0;
      } else if (list && isStringLike(list)) t.phrases = [list.text];
      else t.phrasesStatic = false;
    } else if (silence) {
      t.kind = "silence";
      t.silence = this.duration(silence);
    } else if (mention) {
      t.kind = "mention";
      t.mention = this.text(mention) ?? this.strList(mention).map((s) => s.text).join(" / ");
    }
    t.extract = this.strList(this.prop(obj, "extract"));
    return t;
  }

  private readSteps(node: ts.Node, flow: FlowModel, depth: number): void {
    const flowQual = flow.symbolId.slice(flow.symbolId.indexOf("#flow:") + 6);
    const list = this.localValue(node);
    if (!list || !ts.isArrayLiteralExpression(list) || depth > MAX_DEPTH) {
      flow.stepsStatic = false;
      return;
    }
    for (const el of list.elements) {
      if (ts.isSpreadElement(el)) {
        this.readSteps(el.expression, flow, depth + 1);
        continue;
      }
      if (ts.isOmittedExpression(el)) continue;
      const obj = this.localValue(el);
      if (obj && ts.isObjectLiteralExpression(obj)) flow.steps.push(this.step(obj, flow, flowQual));
      else flow.stepsStatic = false;
    }
  }

  private step(obj: ts.ObjectLiteralExpression, flow: FlowModel, flowQual: string): StepModel {
    const index = flow.steps.length;
    const props = propertiesOf(obj);
    const get = (name: string) => propertyValue(props.get(name));
    const id = this.str(get("id"));
    const elseNode = get("else");
    const waitNode = get("wait");
    const elseStr = this.str(elseNode);
    const step: StepModel = {
      symbolId: this.claim("step", `${flowQual}.${id?.text ?? index}`, obj.getStart(this.state.sf)),
      index,
      id,
      range: this.state.range(obj),
      prompt: this.text(get("prompt")),
      collect: this.strList(get("collect")),
      hasWait: !!waitNode,
      wait: this.duration(waitNode),
      else: elseStr,
      elseDynamic: !!elseNode && !isMissing(elseNode) && !elseStr,
      do: this.strList(get("do")),
      tools: this.strList(get("tools")),
      branches: [],
      branchesStatic: true,
    };
    const branches = get("branches");
    if (branches) {
      const list = this.localValue(branches);
      if (list && ts.isArrayLiteralExpression(list)) {
        for (const el of list.elements) {
          const b = this.localValue(ts.isSpreadElement(el) ? undefined : el);
          if (b && ts.isObjectLiteralExpression(b)) step.branches.push(this.branch(b));
          else step.branchesStatic = false;
        }
      } else if (!isMissing(branches)) step.branchesStatic = false;
    }
    return step;
  }

  private branch(obj: ts.ObjectLiteralExpression): BranchModel {
    const gotoNode = this.prop(obj, "goto");
    const whenProp = findProperty(obj, "when");
    const goto = this.str(gotoNode);
    return {
      range: this.state.range(obj),
      when: this.text(propertyValue(whenProp)),
      hasWhen: !!whenProp,
      goto,
      gotoDynamic: !!gotoNode && !isMissing(gotoNode) && !goto,
    };
  }

  // ---- agents -------------------------------------------------------------------------------------

  private agentCall(call: ts.CallExpression): void {
    const callee = call.expression as ts.PropertyAccessExpression;
    const obj = this.objectArg(call);
    let builder = this.builderOf(callee.expression);
    if (!builder) {
      if (!this.state.importsFalai || !obj || !findProperty(obj, "flows")) return;
      builder = { known: false };
    }
    const sf = this.state.sf;
    const nameStr = obj ? this.str(this.prop(obj, "name")) : undefined;
    const varName = declaredName(call);
    const varNode = varNameNode(call);
    const agent: AgentModel = {
      symbolId: this.claim("agent", varName ?? nameStr?.text ?? "agent", call.getStart(sf)),
      file: this.state.file,
      name: nameStr?.text,
      varName,
      range: this.state.range(declarationOf(call)),
      nameRange: nameStr?.range ?? (varNode ? this.state.range(varNode) : this.state.range(callee.name)),
      builder,
      flows: [],
      flowsStatic: !!obj,
      tools: [],
      toolsStatic: false,
      actions: [],
      actionsStatic: false,
      hasClock: !!obj && !!findProperty(obj, "clock"),
      node: call,
    };
    if (obj) {
      const flows = this.prop(obj, "flows");
      if (flows) this.collectFlows(this.state, flows, agent, undefined, 0);
      else agent.flowsStatic = false;
      this.readRegistrations(obj, agent, "tool");
      this.readRegistrations(obj, agent, "action");
    }
    this.agents.set(keyOf(call), agent);
  }

  /** Flows named in `flows: [...]`, through consts, spreads and imports. `ref` is the place in this file. */
  private collectFlows(state: FileState, node: ts.Node, agent: AgentModel, ref: SourceRange | undefined, depth: number): void {
    if (depth > MAX_DEPTH) {
      agent.flowsStatic = false;
      return;
    }
    const here = ref ?? (state === this.state ? this.state.range(strip(node)) : undefined);
    const v = this.valueOf(state, node);
    if (!v) {
      agent.flowsStatic = false;
      return;
    }
    // Leaving this file: every flow found from here on is reported at the name in this file.
    const nextRef = v.state === this.state ? ref : here;
    if (ts.isArrayLiteralExpression(v.node)) {
      for (const el of v.node.elements) {
        if (ts.isOmittedExpression(el)) continue;
        this.collectFlows(v.state, ts.isSpreadElement(el) ? el.expression : el, agent, nextRef, depth + 1);
      }
      return;
    }
    if (ts.isCallExpression(v.node) && calledMethod(v.node) === "flow") {
      const owner = v.state === this.state ? this : this.session.extractorFor(v.state);
      const flow = owner.flowAt(v.node);
      if (flow && (nextRef ?? here)) {
        const entry: AgentFlowEntry = { flow, refRange: nextRef ?? here! };
        agent.flows.push(entry);
        return;
      }
    }
    agent.flowsStatic = false;
  }

  private readRegistrations(obj: ts.ObjectLiteralExpression, agent: AgentModel, kind: "tool" | "action"): void {
    const key = kind === "tool" ? "tools" : "actions";
    const list = kind === "tool" ? agent.tools : agent.actions;
    const p = findProperty(obj, key);
    if (!p) {
      // No key: the agent registers none (f.tool / f.action only make definitions; the agent's options register them).
      if (kind === "tool") agent.toolsStatic = true;
      else agent.actionsStatic = true;
      return;
    }
    const isStatic = this.registrationsIn(this.state, propertyValue(p), kind, list, 0, agent.symbolId);
    if (kind === "tool") agent.toolsStatic = isStatic;
    else agent.actionsStatic = isStatic;
  }

  /** Registrations in an array of f.tool/f.action values or an object keyed by name. False when not all are static. */
  private registrationsIn(state: FileState, node: ts.Node | undefined, kind: "tool" | "action", out: Registration[], depth: number, ownerId: string): boolean {
    if (!node || depth > MAX_DEPTH) return false;
    const v = this.valueOf(state, node);
    if (!v) return false;
    if (ts.isArrayLiteralExpression(v.node)) {
      let ok = true;
      for (const el of v.node.elements) {
        if (ts.isOmittedExpression(el)) continue;
        if (!this.registrationsIn(v.state, ts.isSpreadElement(el) ? el.expression : el, kind, out, depth + 1, ownerId)) ok = false;
      }
      return ok;
    }
    if (ts.isCallExpression(v.node) && calledMethod(v.node) === kind) {
      const owner = v.state === this.state ? this : this.session.extractorFor(v.state);
      const reg = owner.registrationAt(v.node);
      if (reg) out.push(reg);
      return !!reg;
    }
    if (ts.isObjectLiteralExpression(v.node)) {
      if (v.state !== this.state) return false;
      let ok = true;
      for (const p of v.node.properties) {
        if (ts.isSpreadAssignment(p)) {
          if (!this.registrationsIn(v.state, p.expression, kind, out, depth + 1, ownerId)) ok = false;
          continue;
        }
        const name = propertyName(p.name);
        if (name === undefined || !p.name || isMissing(p.name)) {
          ok = false;
          continue;
        }
        // `{ orcamento: f.tool(...) }`: the key is the name; the f.tool call is already a symbol when it names itself
        const value = this.valueOf(v.state, propertyValue(p) ?? p);
        const existing = value && ts.isCallExpression(value.node) && calledMethod(value.node) === kind
          ? (value.state === this.state ? this : this.session.extractorFor(value.state)).registrationAt(value.node)
          : undefined;
        if (existing && existing.name === name) {
          out.push(existing);
          continue;
        }
        const reg: Registration = {
          kind,
          name,
          symbolId: this.claim(kind, name, p.name.getStart(this.state.sf)),
          file: this.state.file,
          nameRange: isStringLike(p.name) ? this.state.contents(p.name) : this.state.range(p.name),
          range: this.state.range(p),
          ownerId,
        };
        const spec = value?.state === this.state && ts.isObjectLiteralExpression(value.node) ? value.node : undefined;
        if (spec) reg.description = this.text(this.prop(spec, "description"));
        this.registrations.push(reg);
        out.push(reg);
      }
      return ok;
    }
    return false;
  }

  // ---- eval sites ---------------------------------------------------------------------------------

  private turnCall(call: ts.CallExpression, method: "turn" | "turnStream"): void {
    const receiver = (call.expression as ts.PropertyAccessExpression).expression;
    const found = this.agentOf(this.state, receiver, 0);
    if (found === "other") return;
    if (found === "unknown" && !this.state.importsFalai) return;
    this.turnSites.push({
      method,
      range: this.state.range(call),
      line: this.state.line(call),
      agent: typeof found === "object" ? found : undefined,
    });
  }

  /** The agent a receiver stands for; "unknown" when it cannot be followed, "other" when it is clearly not one. */
  private agentOf(state: FileState, node: ts.Node, depth: number): AgentModel | "unknown" | "other" {
    if (depth > MAX_DEPTH) return "unknown";
    let e = strip(node);
    if (ts.isAwaitExpression(e)) e = strip(e.expression);
    if (ts.isIdentifier(e)) {
      const r = state.resolve(e);
      return r ? this.agentOf(r.state, r.node, depth + 1) : "unknown";
    }
    if (ts.isCallExpression(e)) {
      if (calledMethod(e) === "agent") {
        const owner = state === this.state ? this : this.session.extractorFor(state);
        return owner.agentAt(e) ?? "unknown";
      }
      // a factory: `createAgent(provider, clock)` returning `f.agent({...})`
      const callee = this.valueOf(state, e.expression);
      if (callee && ts.isFunctionLike(callee.node)) return this.agentReturnedBy(callee.state, callee.node, depth + 1);
      return "unknown";
    }
    if (ts.isFunctionLike(e)) return "other";
    if (ts.isLiteralExpression(e) || ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e)) return "other";
    return "unknown";
  }

  private agentReturnedBy(state: FileState, fn: ts.SignatureDeclaration, depth: number): AgentModel | "unknown" | "other" {
    const body = (fn as ts.FunctionLikeDeclaration).body;
    if (!body) return "unknown";
    if (!ts.isBlock(body)) return this.agentOf(state, body, depth);
    let result: AgentModel | "unknown" | "other" = "unknown";
    const visit = (n: ts.Node): void => {
      if (typeof result === "object") return;
      if (ts.isReturnStatement(n) && n.expression) {
        const r = this.agentOf(state, n.expression, depth);
        if (typeof r === "object") result = r;
        return;
      }
      if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
    };
    ts.forEachChild(body, visit);
    return result;
  }

  /**
   * Keys of scripted understand replies name flows (`flows`, `mentions`, `extract`) and fields (`fields`) of
   * the agent this eval file runs: the agents of its turn sites, else the agents defined here.
   */
  private understandEnvelopes(): void {
    const agents = new Set<AgentModel>();
    for (const site of this.turnSites) if (site.agent) agents.add(site.agent);
    if (agents.size === 0) for (const a of this.agents.values()) agents.add(a);
    if (agents.size === 0) return;
    const flows = new Map<string, FlowModel>();
    const fieldSets = new Set<FieldSetModel>();
    for (const agent of agents) {
      if (agent.builder.fieldSet) fieldSets.add(agent.builder.fieldSet);
      for (const e of agent.flows) if (e.flow.id && !flows.has(e.flow.id.text)) flows.set(e.flow.id.text, e.flow);
    }
    const flowCandidates = [...flows.values()].map((f) => ({ name: f.id!.text, symbolId: f.symbolId, detail: f.name }));
    const fields = [...fieldSets].flatMap((s) => s.fields);
    const fieldCandidates = fields.map((f) => ({ name: f.name, symbolId: f.symbolId, detail: f.type?.text }));
    for (const env of this.state.envelopes) {
      const props = propertiesOf(env);
      for (const [section, kind] of [["flows", "flow"], ["mentions", "flow"], ["extract", "flow"], ["fields", "field"]] as const) {
        if (kind === "field" && fieldSets.size === 0) continue;
        const obj = this.localValue(propertyValue(props.get(section)));
        if (!obj || !ts.isObjectLiteralExpression(obj)) continue;
        for (const p of obj.properties) {
          if (ts.isSpreadAssignment(p) || !p.name || ts.isComputedPropertyName(p.name) || ts.isPrivateIdentifier(p.name)) continue;
          const text = propertyName(p.name);
          if (text === undefined || isMissing(p.name)) continue;
          const range = isStringLike(p.name) ? this.state.contents(p.name) : this.state.range(p.name);
          const key = new Str(text, range, this.state.range(p.name));
          const targetId = kind === "flow" ? flows.get(text)?.symbolId : fields.find((f) => f.name === text)?.symbolId;
          this.scriptKeys.push({ kind, key, targetId, candidates: kind === "flow" ? flowCandidates : fieldCandidates });
        }
      }
    }
  }

  private clockAdvance(call: ts.CallExpression): void {
    const receiver = (call.expression as ts.PropertyAccessExpression).expression;
    const v = this.valueOf(this.state, receiver);
    if (!v || !v.state.isFakeClockCall(v.node)) return;
    const d = this.duration(call.arguments[0]);
    if (d) this.durations.push(d);
  }
}

/** `const name = <call>` → "name". */
function declaredName(call: ts.Node): string | undefined {
  const n = varNameNode(call);
  return n?.text;
}

/** The `name = <call>` declaration when the call is assigned to a const, else the call itself. */
function declarationOf(call: ts.Node): ts.Node {
  const n = varNameNode(call);
  return n ? n.parent : call;
}

function varNameNode(call: ts.Node): ts.Identifier | undefined {
  let p = call.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p))) p = p.parent;
  return p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name) ? p.name : undefined;
}
