// One walk over a file's compiler nodes finds setupAgent configs, machines (agent.createMachine,
// setup(...).createMachine, createMachine) and eval call sites; machines made from an agent defined in
// another file pull that agent in through the resolver.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: each `ts.x` through ts-morph's re-export is a getter call (the hot path)
import type { ExtractContext } from "../library";
import type { DeclarationResolver, Parsed } from "../resolve/declarations";
import { bindingNameNode, calleeName, hasModifier, unwrap } from "../util/ts-nodes";
import { emptyEvalCall, extractEvalCall, EVAL_APIS } from "./evals";
import { readMachine } from "./machine";
import { actorLogicOf } from "./sources";
import type { ActorDef, AgentDef, EvalApi, FileModel, MachineDef, RequestDef, StateDef, TargetDef, Text } from "./model";
import { Values, type Entry, type ObjectView } from "../resolve/values";
import type { StatelyHost } from "./host";
import { keepShape } from "../util/shapes";
import { SKIP, walkDescendants } from "../util/walk";

/** Where a setup config registers actor sources (see `actorEntries`). */
const ACTOR_KEYS = ["actors", "actorSources"] as const;

/** Per analysis run: the models of every file read, so a machine imported twice is extracted once and
 *  symbol ids stay the same whichever file is analyzed. */
export class StatelyExtractor implements StatelyHost {
  readonly values: Values;
  readonly resolver: DeclarationResolver;
  private readonly fileModels = new Map<string, FileModel>();
  private readonly agentsByNode = new Map<ts.Node, AgentDef>();
  private readonly machinesByNode = new Map<ts.Node, MachineDef>();
  private readonly usedIds = new Set<string>();
  /** Target literal → the targets read from it (see noteTarget). */
  readonly targetLiterals = new Map<ts.Node, Array<{ target: TargetDef; source: StateDef }>>();
  /** Nodes whose source text was copied into the model (request prompts, schemas). */
  readonly copiedTexts: ts.Node[] = [];

  constructor(readonly ctx: ExtractContext) {
    this.resolver = ctx.resolver;
    this.values = new Values(ctx.resolver);
  }

  /** The model of a file (the analyzed one, or one reached through imports). */
  model(file: string): FileModel | undefined {
    const cached = this.fileModels.get(file);
    if (cached) return cached;
    const ctx = this.ctx.contextFor(file);
    if (!ctx) return undefined;
    const model: FileModel = { agents: [], machines: [], evalCalls: [] };
    this.fileModels.set(file, model);
    this.walk(ctx.parsed, model, file === this.ctx.file);
    return model;
  }

  /** The machine created by a call node found through resolution (in any file). */
  machineAt(at: Parsed, node: ts.Node): MachineDef | undefined {
    this.model(at.file);
    return this.machinesByNode.get(node);
  }

  agentAt(at: Parsed, node: ts.Node): AgentDef | undefined {
    this.model(at.file);
    return this.agentsByNode.get(node);
  }

  noteTarget(target: TargetDef, source: StateDef): void {
    const list = this.targetLiterals.get(target.node);
    if (list) list.push({ target, source });
    else this.targetLiterals.set(target.node, [{ target, source }]);
  }

  /** A unique symbol id (later duplicates of a name get an `@line` suffix). */
  uniqueId(id: string, at: Parsed, node: ts.Node): string {
    if (!this.usedIds.has(id)) {
      this.usedIds.add(id);
      return id;
    }
    const line = at.sf.getLineAndCharacterOfPosition(node.getStart(at.sf)).line + 1;
    let candidate = `${id}@${line}`;
    for (let i = 2; this.usedIds.has(candidate); i++) candidate = `${id}@${line}.${i}`;
    this.usedIds.add(candidate);
    return candidate;
  }

  private walk(at: Parsed, model: FileModel, withEvals: boolean): void {
    const exportsByLocal = localExportNames(at.sf);
    // iterative (util/walk.ts): a file may nest expressions deeper than the call stack goes
    const visit = (node: ts.Node): boolean | void => {
      if (!ts.isCallExpression(node)) return;
      const name = calleeName(node);
      // A config that was read is not walked again (a machine file is mostly its config).
      if (name === "setupAgent" && this.isLibraryCall(at, node)) {
        const agent = this.readAgent(at, node);
        if (agent) model.agents.push(agent);
        return SKIP;
      } else if (name === "createMachine" && this.isLibraryCall(at, node)) {
        const machine = this.readMachineCall(at, node, exportsByLocal);
        if (machine) model.machines.push(machine);
        // `setup({...}).createMachine`: the receiver may hold more
        walkDescendants(node.expression, visit);
        return SKIP;
      } else if (withEvals && name && EVAL_APIS.has(name as EvalApi) && this.isLibraryCall(at, node)) {
        // machines passed to eval calls are read after the walk (they may be declared later)
        model.evalCalls.push(emptyEvalCall(name as EvalApi, at, node));
      }
    };
    walkDescendants(at.sf, visit);
    if (withEvals) model.evalCalls = model.evalCalls.map((c) => extractEvalCall(this, c.at, c.node as ts.CallExpression, c.api));
  }

  /** A call whose callee is the library's function: imported from a library module, reached through a
   *  receiver (`agent.createMachine`), or a name that is not declared in the file at all. A function of
   *  the user's own with the same name is not the library's. */
  isLibraryCall(at: Parsed, call: ts.CallExpression): boolean {
    const callee = unwrap(call.expression);
    if (ts.isPropertyAccessExpression(callee)) return true;
    if (!ts.isIdentifier(callee)) return false;
    const r = this.resolver.resolveIdentifier(at, callee);
    if (!r) return true;
    if (r.kind === "library") return true;
    return false;
  }

  readAgent(at: Parsed, call: ts.CallExpression): AgentDef | undefined {
    const existing = this.agentsByNode.get(call);
    if (existing) return existing;
    const config = this.values.object(at, call.arguments[0]);
    const name = bindingNameNode(call)?.text ?? "agent";
    const agent: AgentDef = {
      at,
      node: call,
      name,
      symbolId: this.uniqueId(`${at.file}#agent:${name}`, at, call),
      requests: new Map(),
      requestsComplete: !!config?.complete,
      models: new Map(),
      actors: new Map(),
      actorsComplete: !!config?.complete,
    };
    this.agentsByNode.set(call, agent);
    if (!config) return agent;
    const requestsEntry = config.entries.get("requests");
    if (requestsEntry) {
      const requests = this.values.object(requestsEntry.at, requestsEntry.value);
      if (!requests) agent.requestsComplete = false;
      else {
        if (!requests.complete) agent.requestsComplete = false;
        for (const entry of requests.entries.values()) {
          const request = this.readRequestConfig(entry.at, entry.value, { text: entry.name, at: entry.at, node: entry.nameNode }, `${at.file}#request:${name}.${entry.name}`);
          request.node = entry.node;
          agent.requests.set(entry.name, request);
          if (request.model) this.addModel(agent, request.model);
        }
      }
    }
    const modelsEntry = config.entries.get("models");
    const models = modelsEntry && this.values.object(modelsEntry.at, modelsEntry.value);
    for (const entry of models?.entries.values() ?? []) this.addModel(agent, { text: entry.name, at: entry.at, node: entry.nameNode });
    agent.events = this.declaredEvents(config);
    const actors = this.actorEntries(config);
    if (!actors.complete) agent.actorsComplete = false;
    for (const e of actors.entries) agent.actors.set(e.name, { text: e.name, at: e.at, node: e.nameNode, logic: actorLogicOf(this.values, e.at, e.value), symbolId: `${at.file}#actor:${name}.${e.name}` });
    return agent;
  }

  /** The actor sources a setup config registers: under `actors`, or `actorSources` (the name later XState
   *  v6 alphas and upstream's newer docs and examples use); `complete` is false when some cannot be read. */
  private actorEntries(config: ObjectView): { entries: Entry[]; complete: boolean } {
    const entries: Entry[] = [];
    let complete = true;
    for (const key of ACTOR_KEYS) {
      const entry = config.entries.get(key);
      if (!entry) continue;
      const actors = this.values.object(entry.at, entry.value);
      if (!actors?.complete) complete = false;
      for (const e of actors?.entries.values() ?? []) entries.push(e);
    }
    return { entries, complete };
  }

  /** `events: { TYPE: schema }`, directly or in a `schemas: createAgentSchemas({ events })` pack. */
  private declaredEvents(config: ObjectView): Set<string> | undefined {
    let events = config.entries.get("events");
    const pack = config.entries.get("schemas");
    if (pack) {
      const v = this.values.valueOf(pack.at, pack.value);
      const packConfig = v && ts.isCallExpression(v.node) && v.node.arguments[0] ? this.values.object(v.at, v.node.arguments[0]) : v && this.values.object(v.at, v.node);
      if (!packConfig?.complete) return undefined;
      events = packConfig.entries.get("events") ?? events;
    }
    if (!events) return config.complete ? new Set() : undefined;
    const view = this.values.object(events.at, events.value);
    return view?.complete ? new Set(view.entries.keys()) : undefined;
  }

  private addModel(agent: AgentDef, model: Text): void {
    if (agent.models.has(model.text)) return;
    agent.models.set(model.text, { name: model.text, at: model.at, node: model.node, symbolId: `${agent.at.file}#model:${agent.name}.${model.text}` });
  }

  /** A request's config: an object literal, or a createTextLogic/createDecisionLogic call's argument. */
  readRequestConfig(at: Parsed, value: ts.Node, name: Text, symbolId: string, kind: "text" | "decision" = "text"): RequestDef {
    const request: RequestDef = { at: name.at, node: name.node, nameNode: name.node, name: name.text, symbolId, kind };
    let v = this.values.valueOf(at, value);
    if (v && ts.isCallExpression(v.node)) {
      const callee = calleeName(v.node);
      if (callee === "createDecisionLogic" || callee === "decide") request.kind = "decision";
      v = v.node.arguments[0] ? { at: v.at, node: v.node.arguments[0] } : undefined;
    }
    const config = v && this.values.object(v.at, v.node);
    if (!config) {
      request.modelOpen = true; // a config built by a function, say: whatever model it names is unseen
      return request;
    }
    const modelEntry = config.entries.get("model");
    const model = modelEntry && this.values.string(modelEntry.at, modelEntry.value);
    if (model) request.model = model;
    else if (modelEntry || !config.complete) request.modelOpen = true;
    const schemas = config.entries.get("schemas");
    const schemaView = schemas && this.values.object(schemas.at, schemas.value);
    const input = schemaView?.entries.get("input");
    const output = schemaView?.entries.get("output");
    if (input) request.inputSchema = this.copy(input);
    if (output) request.outputSchema = this.copy(output);
    request.prompt = this.copyOf(config, "prompt") ?? this.copyOf(config, "messages");
    request.system = this.copyOf(config, "system");
    if (config.entries.has("events")) request.kind = "decision";
    return request;
  }

  /** The source text of an entry's value, recorded as copied (methods, not closures made per request:
   *  util/shapes.ts). */
  private copy(entry: Entry): string {
    this.copiedTexts.push(entry.value);
    return entry.value.getText(entry.at.sf);
  }

  private copyOf(config: ObjectView, key: string): string | undefined {
    const e = config.entries.get(key);
    return e ? this.copy(e) : undefined;
  }

  private readMachineCall(at: Parsed, call: ts.CallExpression, exportsByLocal: Map<string, string>): MachineDef | undefined {
    const existing = this.machinesByNode.get(call);
    if (existing) return existing;
    const callee = unwrap(call.expression);
    let kind: MachineDef["kind"] = "plain";
    let agent: AgentDef | undefined;
    let setupActors: Map<string, ActorDef> | undefined;
    let setupActorsComplete = true;
    if (ts.isPropertyAccessExpression(callee)) {
      const receiver = this.values.valueOf(at, callee.expression);
      if (receiver && ts.isCallExpression(receiver.node)) {
        const receiverName = calleeName(receiver.node);
        if (receiverName === "setupAgent") {
          kind = "agent";
          agent = this.agentAt(receiver.at, receiver.node) ?? this.readAgent(receiver.at, receiver.node);
        } else if (receiverName === "setup") {
          kind = "setup";
          const config = this.values.object(receiver.at, receiver.node.arguments[0]);
          const actors = config && this.actorEntries(config);
          setupActors = new Map();
          setupActorsComplete = !!config?.complete && !!actors?.complete;
          for (const e of actors?.entries ?? []) setupActors.set(e.name, { text: e.name, at: e.at, node: e.nameNode, logic: actorLogicOf(this.values, e.at, e.value) });
        }
      }
    }
    const binding = bindingNameNode(call)?.text;
    const name = binding ?? (isDefaultExported(call) ? "default" : "machine");
    const exportName = binding ? exportsByLocal.get(binding) : isDefaultExported(call) ? "default" : undefined;
    const machine = readMachine(this, at, call, { name, kind, agent, setupActors, setupActorsComplete, exportName, callee });
    this.machinesByNode.set(call, machine);
    return machine;
  }
}

function isDefaultExported(call: ts.Node): boolean {
  let node = call.parent;
  while (node && (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))) node = node.parent;
  return !!node && ts.isExportAssignment(node);
}

/** local name → exported name, for `export const x`, `export { x }`, `export { x as y }`. */
function localExportNames(sf: ts.SourceFile): Map<string, string> {
  const map = new Map<string, string>();
  for (const stmt of sf.statements) {
    if (ts.isVariableStatement(stmt) && hasModifier(stmt, ts.SyntaxKind.ExportKeyword)) {
      for (const d of stmt.declarationList.declarations) if (ts.isIdentifier(d.name)) map.set(d.name.text, d.name.text);
    } else if (ts.isExportDeclaration(stmt) && !stmt.moduleSpecifier && stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
      for (const el of stmt.exportClause.elements) {
        const local = (el.propertyName ?? el.name).text;
        if (!map.has(local)) map.set(local, el.name.text);
      }
    } else if (ts.isExportAssignment(stmt) && !stmt.isExportEquals && ts.isIdentifier(unwrap(stmt.expression))) {
      const local = (unwrap(stmt.expression) as ts.Identifier).text;
      if (!map.has(local)) map.set(local, "default");
    }
  }
  return map;
}

// Kept so the class's map (and its Values') outlives each analysis (util/shapes.ts); it has read nothing.
keepShape(new StatelyExtractor({} as ExtractContext));
