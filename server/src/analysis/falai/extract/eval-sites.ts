// Eval sites of a file: `agent.turn(input)` / `agent.turnStream(input)` (with the flow a `start` names
// and the event an `event` input names), the keys of scripted understand replies, and durations given
// to a fake clock's `advance`.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import type { Parsed } from "../../resolve/declarations";
import { calledMethod, isFunctionLike, propertyNameText, unwrap } from "../../util/ts-nodes";
import { Str, type AgentModel, type DurationValue, type FieldSetModel, type FlowModel, type ScriptKeyRef, type TurnSite } from "../model";
import type { FalaiHost } from "./host";
import { SKIP, walkDescendants } from "../../util/walk";

const MAX_DEPTH = 12;

type AgentOf = AgentModel | "unknown" | "other";

/** A turn site, or undefined when the receiver is clearly not an agent (or unknown in a file that
 *  does not import the library). */
export function readTurnSite(host: FalaiHost, call: ts.CallExpression, method: "turn" | "turnStream"): TurnSite | undefined {
  const r = host.reader;
  const receiver = (call.expression as ts.PropertyAccessExpression).expression;
  const found = agentOf(host, r.at, receiver, 0);
  if (found === "other") return undefined;
  if (found === "unknown" && !host.importsFalai) return undefined;
  const site: TurnSite = { method, range: r.range(call), line: r.line(call), agent: typeof found === "object" ? found : undefined, startsUnknown: false };
  const input = r.object(call.arguments[0]);
  if (!input || !input.complete) site.startsUnknown = true;
  const start = input?.entries.get("start");
  if (start) {
    const flow = r.object(start.value)?.entries.get("flow");
    site.startFlow = flow ? r.str(flow.value) : undefined;
    if (!site.startFlow) site.startsUnknown = true;
  }
  const event = input?.entries.get("event");
  if (event) site.event = r.str(event.value);
  return site;
}

/** The agent a receiver stands for; "unknown" when it cannot be followed, "other" when it clearly is not one. */
function agentOf(host: FalaiHost, at: Parsed, node: ts.Node, depth: number): AgentOf {
  if (depth > MAX_DEPTH) return "unknown";
  let e = unwrap(node);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (ts.isIdentifier(e)) {
    const v = host.reader.values.valueOf(at, e);
    return v && v.node !== e ? agentOf(host, v.at, v.node, depth + 1) : "unknown";
  }
  if (ts.isCallExpression(e)) {
    if (calledMethod(e) === "agent") return host.agentAt(at, e) ?? "unknown";
    // a factory: `createAgent(provider, clock)` returning `f.agent({...})`
    const callee = host.reader.values.valueOf(at, e.expression);
    if (callee && isFunctionLike(callee.node)) return agentReturnedBy(host, callee.at, callee.node, depth + 1);
    return "unknown";
  }
  if (isFunctionLike(e) || ts.isArrowFunction(e)) return "other";
  if (ts.isLiteralExpression(e) || ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e)) return "other";
  return "unknown";
}

function agentReturnedBy(host: FalaiHost, at: Parsed, fn: ts.FunctionLikeDeclaration, depth: number): AgentOf {
  const body = fn.body;
  if (!body) return "unknown";
  if (!ts.isBlock(body)) return agentOf(host, at, body, depth);
  let result: AgentOf = "unknown";
  walkDescendants(body, (n) => {
    if (typeof result === "object") return SKIP;
    if (ts.isReturnStatement(n) && n.expression) {
      const found = agentOf(host, at, n.expression, depth);
      if (typeof found === "object") result = found;
      return SKIP;
    }
    return !ts.isFunctionLike(n);
  });
  return result;
}

/** An object with `flows: {...}` (an object, not an agent's flows list) and another understand section. */
export function isUnderstandEnvelope(obj: ts.ObjectLiteralExpression): boolean {
  let flows = false;
  let other = false;
  for (const p of obj.properties) {
    if (!ts.isPropertyAssignment(p)) continue;
    const name = propertyNameText(p.name);
    if (name === "flows") flows = ts.isObjectLiteralExpression(p.initializer);
    else if (name === "mentions" || name === "extract" || name === "branches" || name === "fields") other = true;
  }
  return flows && other;
}

/**
 * Keys of scripted understand replies name flows (`flows`, `mentions`, `extract`) and fields (`fields`) of
 * the agents this eval file runs: the agents of its turn sites, else the agents defined here.
 */
export function readScriptKeys(host: FalaiHost, envelopes: ts.ObjectLiteralExpression[], agents: Iterable<AgentModel>): ScriptKeyRef[] {
  const r = host.reader;
  const flows = new Map<string, FlowModel>();
  const fieldSets = new Set<FieldSetModel>();
  for (const agent of agents) {
    if (agent.builder.fieldSet) fieldSets.add(agent.builder.fieldSet);
    for (const e of agent.flows) if (e.flow.id && !flows.has(e.flow.id.text)) flows.set(e.flow.id.text, e.flow);
  }
  if (flows.size === 0 && fieldSets.size === 0) return [];
  const flowCandidates = [...flows.values()].map((f) => ({ name: f.id!.text, symbolId: f.symbolId, detail: f.name }));
  const fields = [...fieldSets].flatMap((s) => s.fields);
  const fieldCandidates = fields.map((f) => ({ name: f.name, symbolId: f.symbolId, detail: f.type?.text }));
  const out: ScriptKeyRef[] = [];
  for (const env of envelopes) {
    const view = r.object(env);
    for (const [section, kind] of [["flows", "flow"], ["mentions", "flow"], ["extract", "flow"], ["fields", "field"]] as const) {
      if (kind === "field" && fieldSets.size === 0) continue;
      const obj = r.local(view?.entries.get(section)?.value);
      if (!obj || !ts.isObjectLiteralExpression(obj)) continue;
      for (const p of obj.properties) {
        if (ts.isSpreadAssignment(p) || !p.name || ts.isComputedPropertyName(p.name) || ts.isPrivateIdentifier(p.name)) continue;
        const text = propertyNameText(p.name);
        if (text === undefined || p.name.pos === p.name.end) continue;
        const key = new Str(text, r.keyRange(p.name), r.range(p.name));
        const targetId = kind === "flow" ? flows.get(text)?.symbolId : fields.find((f) => f.name === text)?.symbolId;
        out.push({ kind, key, targetId, candidates: kind === "flow" ? flowCandidates : fieldCandidates });
      }
    }
  }
  return out;
}

/** `clock.advance("24h")` on a `fakeClock(...)`. */
export function readClockAdvance(host: FalaiHost, call: ts.CallExpression, isFakeClock: (at: Parsed, node: ts.Node) => boolean): DurationValue | undefined {
  const receiver = (call.expression as ts.PropertyAccessExpression).expression;
  const v = host.reader.values.valueOf(host.reader.at, receiver);
  if (!v || !isFakeClock(v.at, v.node)) return undefined;
  return host.reader.duration(call.arguments[0]);
}
