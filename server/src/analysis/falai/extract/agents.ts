// `f.agent({...})`: the flows it runs and what it registers — `tools` (objects with an `id`), and the
// keyed registries `actions`, `events` and `conditions` — through consts, spreads and imports.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import type { Parsed } from "../../resolve/declarations";
import type { ObjectView } from "../../resolve/values";
import { bindingNameNode, calledMethod, findProperty, isMissing, isStringLike } from "../../util/ts-nodes";
import type { AgentModel, BuilderRef, Registration, RegistrationKind, Registry } from "../model";
import type { SourceRange } from "../../types";
import type { FalaiHost } from "./host";
import { readInstructionPreds } from "./steps";

const MAX_DEPTH = 12;
const KEYED: Array<[RegistrationKind, "actions" | "events" | "conditions"]> = [["action", "actions"], ["event", "events"], ["condition", "conditions"]];

export function readAgent(host: FalaiHost, call: ts.CallExpression): AgentModel | undefined {
  const r = host.reader;
  const callee = call.expression as ts.PropertyAccessExpression;
  const options = r.object(call.arguments[0]);
  let builder: BuilderRef | undefined = host.builderOf(callee.expression);
  if (!builder) {
    if (!host.importsFalai || !options || !options.entries.has("flows")) return undefined;
    builder = { known: false };
  }
  const get = (key: string) => options?.entries.get(key)?.value;
  const nameStr = r.str(get("name"));
  const varNode = bindingNameNode(call);
  const complete = !!options?.complete;
  const agent: AgentModel = {
    symbolId: host.claim("agent", varNode?.text ?? nameStr?.text ?? "agent", call),
    file: r.file,
    name: nameStr?.text,
    varName: varNode?.text,
    range: r.range(varNode ? varNode.parent : call),
    nameRange: nameStr?.range ?? r.range(varNode ?? callee.name),
    builder,
    flows: [],
    flowsStatic: false,
    tools: { entries: [], complete },
    actions: { entries: [], complete },
    events: { entries: [], complete },
    conditions: { entries: [], complete },
    idleTools: [],
    instructionPreds: readInstructionPreds(r, get("instructions")),
    hasClock: !!options?.entries.has("clock"),
    persona: r.text(get("persona")),
    goal: r.text(get("goal")),
    node: call,
  };
  if (!options) return agent;
  const flows = options.entries.get("flows");
  if (flows) {
    agent.flowsStatic = true;
    collectFlows(host, flows.at, flows.value, agent, undefined, 0);
  }
  const tools = options.entries.get("tools");
  if (tools) agent.tools = readTools(host, tools.at, tools.value, agent.symbolId);
  for (const [kind, key] of KEYED) {
    const entry = options.entries.get(key);
    if (entry) agent[key] = readKeyed(host, kind, entry.at, entry.value, agent.symbolId);
  }
  const idle = r.props(get("idle"));
  if (idle) {
    agent.idleTools = r.strList(idle.get("tools"));
    agent.instructionPreds = [...agent.instructionPreds, ...readInstructionPreds(r, idle.get("instructions"))];
  }
  return agent;
}

/** Flows named in `flows: [...]`, through consts, spreads and imports. `ref` is the place in this file
 *  that names them (every flow found through another file is reported there). */
function collectFlows(host: FalaiHost, at: Parsed, node: ts.Node, agent: AgentModel, ref: SourceRange | undefined, depth: number): void {
  const here = ref ?? (at.file === host.reader.file ? host.reader.range(host.reader.unwrap(node)) : undefined);
  const v = host.reader.values.valueOf(at, node);
  if (!v || depth > MAX_DEPTH) {
    agent.flowsStatic = false;
    return;
  }
  const nextRef = v.at.file === host.reader.file ? ref : here;
  if (ts.isArrayLiteralExpression(v.node)) {
    for (const el of v.node.elements) {
      if (ts.isOmittedExpression(el)) continue;
      collectFlows(host, v.at, ts.isSpreadElement(el) ? el.expression : el, agent, nextRef, depth + 1);
    }
    return;
  }
  const method = ts.isCallExpression(v.node) ? calledMethod(v.node) : undefined;
  if (method === "flow" || method === "fromSpec") {
    const flow = host.flowAt(v.at, v.node);
    const refRange = nextRef ?? here;
    if (flow && refRange) {
      agent.flows.push({ flow, refRange });
      return;
    }
  }
  agent.flowsStatic = false;
}

/** `tools: [tool, ...]`: plain objects named by their `id`. */
function readTools(host: FalaiHost, at: Parsed, node: ts.Node, ownerId: string): Registry {
  const registry: Registry = { entries: [], complete: true };
  const visit = (at: Parsed, node: ts.Node, depth: number): void => {
    const v = host.reader.values.valueOf(at, node);
    if (!v || depth > MAX_DEPTH) {
      registry.complete = false;
      return;
    }
    if (ts.isArrayLiteralExpression(v.node)) {
      for (const el of v.node.elements) if (!ts.isOmittedExpression(el)) visit(v.at, ts.isSpreadElement(el) ? el.expression : el, depth + 1);
      return;
    }
    const tool = ts.isObjectLiteralExpression(v.node) ? host.reader.values.object(v.at, v.node) : undefined;
    const id = tool?.entries.get("id");
    const idValue = id ? host.reader.values.valueOf(id.at, id.value) : undefined;
    if (!tool || !idValue || !isStringLike(idValue.node)) {
      registry.complete = false;
      return;
    }
    const idNode = idValue.node;
    registry.entries.push(
      host.registration("tool", idValue.at, idNode, () => {
        const r = host.readerFor(idValue.at);
        return {
          kind: "tool",
          name: idNode.text,
          symbolId: `${r.file}#tool:${idNode.text}`,
          file: r.file,
          nameRange: r.contents(idNode),
          range: r.range(tool.node),
          description: r.text(tool.entries.get("description")?.value),
          ownerId,
        };
      }),
    );
  };
  visit(at, node, 0);
  return registry;
}

/** `actions` / `events` / `conditions`: objects keyed by name (inline, a const, a spread, an import). */
function readKeyed(host: FalaiHost, kind: RegistrationKind, at: Parsed, node: ts.Node, ownerId: string): Registry {
  const view: ObjectView | undefined = host.reader.values.object(at, node);
  if (!view) return { entries: [], complete: false };
  const registry: Registry = { entries: [], complete: view.complete };
  for (const entry of view.entries.values()) {
    const prop = entry.node as ts.ObjectLiteralElementLike;
    if (!prop.name || isMissing(prop.name)) {
      registry.complete = false;
      continue;
    }
    registry.entries.push(
      host.registration(kind, entry.at, prop, (): Registration => {
        const r = host.readerFor(entry.at);
        const spec = r.object(entry.value);
        const description = spec?.entries.get("description") ?? describedBy(host, entry.at, entry.value);
        return {
          kind,
          name: entry.name,
          symbolId: `${r.file}#${kind}:${entry.name}`,
          file: r.file,
          nameRange: r.keyRange(prop.name!),
          range: r.range(prop),
          description: description ? r.text(description.value) : undefined,
          shorthand: ts.isShorthandPropertyAssignment(prop) || undefined,
          ownerId,
        };
      }),
    );
  }
  return registry;
}

/** `f.action({ description, ... })`: the description of an action made by the builder. */
function describedBy(host: FalaiHost, at: Parsed, value: ts.Node): { value: ts.Node } | undefined {
  const v = host.reader.values.valueOf(at, value);
  if (!v || !ts.isCallExpression(v.node) || calledMethod(v.node) !== "action") return undefined;
  const def = v.node.arguments[0];
  const literal = def && host.reader.values.valueOf(v.at, def);
  if (!literal || !ts.isObjectLiteralExpression(literal.node)) return undefined;
  const p = findProperty(literal.node, "description");
  return p && ts.isPropertyAssignment(p) ? { value: p.initializer } : undefined;
}
