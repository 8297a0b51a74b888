// From the model to what the language features consume: symbols (with hover summaries), references
// (with completion candidates), code lenses and machine graphs.
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { AgentGraph, AgentReference, AgentSymbol, CompletionCandidate, LensAnchor } from "../api";
import { contentRangeOfTs, rangeOfTs } from "../ranges";
import { lazyCandidates, lazySummary } from "../util/lazy";
import { bindingNameNode } from "../util/ts-nodes";
import type { AgentDef, At, EvalCall, MachineDef, RequestDef, StateDef, Text } from "./model";
import { requestNamesOf } from "./names";
import { reachability, resolveInitial, TargetCandidates } from "./targets";

export interface Outputs {
  symbols: AgentSymbol[];
  references: AgentReference[];
  lenses: LensAnchor[];
  graphs: AgentGraph[];
}

const MAX_SNIPPET = 600;

const nameRange = (w: At) => contentRangeOfTs(w.at.sf, w.node);
const fullRange = (w: At) => rangeOfTs(w.at.sf, w.node);

function snippet(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > MAX_SNIPPET ? text.slice(0, MAX_SNIPPET) + " …" : text;
}

export function agentOutputs(agent: AgentDef, machinesOfAgent: MachineDef[], out: Outputs): void {
  const binding = bindingNameNode(agent.node);
  out.symbols.push({
    id: agent.symbolId,
    kind: "agent",
    name: agent.name,
    file: agent.at.file,
    nameRange: binding ? fullRange({ at: agent.at, node: binding }) : fullRange({ at: agent.at, node: (agent.node as ts.CallExpression).expression }),
    range: fullRange(agent),
    detail: `${agent.requests.size} request${agent.requests.size === 1 ? "" : "s"}`,
    summary: `**agent** \`${agent.name}\` (setupAgent)\n\nRequests: ${[...agent.requests.keys()].map((r) => `\`${r}\``).join(", ") || "none"}\n\nModels: ${[...agent.models.keys()].map((m) => `\`${m}\``).join(", ") || "none"}`,
  });
  for (const request of agent.requests.values()) {
    out.symbols.push(requestSymbol(request, agent.symbolId));
    requestLenses(request, machinesOfAgent, out);
  }
  for (const model of agent.models.values()) {
    const users = [...agent.requests.values()].filter((r) => r.model?.text === model.name).map((r) => `\`${r.name}\``);
    out.symbols.push({
      id: model.symbolId,
      kind: "model",
      name: model.name,
      file: model.at.file,
      nameRange: nameRange(model),
      range: fullRange(model),
      parentId: agent.symbolId,
      detail: "model",
      summary: `**model** \`${model.name}\`\n\nUsed by: ${users.join(", ") || "no request"}\n\nScripts may route by this key when a request has no queue of its own.`,
    });
  }
  for (const actor of agent.actors.values()) {
    out.symbols.push({ id: actor.symbolId, kind: "actor", name: actor.text, file: actor.at.file, nameRange: nameRange(actor), range: fullRange({ at: actor.at, node: actor.node.parent }), parentId: agent.symbolId, detail: "actor", summary: `**actor** \`${actor.text}\`` });
  }
}

function requestSymbol(request: RequestDef, parentId: string): AgentSymbol {
  const lines = [`**request** \`${request.name}\`${request.kind === "decision" ? " (decision)" : ""}${request.model ? ` · model \`${request.model.text}\`` : ""}`];
  const block = (label: string, text: string | undefined) => {
    if (text !== undefined) lines.push(`**${label}**\n\`\`\`ts\n${snippet(text)}\n\`\`\``);
  };
  block("input", request.inputSchema);
  block("output", request.outputSchema);
  block("prompt", request.prompt);
  block("system", request.system);
  return {
    id: request.symbolId,
    kind: "request",
    name: request.name,
    file: request.at.file,
    nameRange: nameRange({ at: request.at, node: request.nameNode }),
    range: fullRange(request),
    parentId,
    detail: request.model ? `model: ${request.model.text}` : request.kind === "decision" ? "decision" : "request",
    summary: lines.join("\n\n"),
  };
}

function incomingOf(machine: MachineDef): Map<StateDef, string[]> {
  const incoming = new Map<StateDef, string[]>();
  for (const s of machine.states) {
    for (const t of s.transitions) {
      for (const target of t.targets) {
        if (!target.state) continue;
        let list = incoming.get(target.state);
        if (!list) incoming.set(target.state, (list = []));
        list.push(`\`${s.path.join(".") || "(root)"}\` —${t.event}→`);
      }
    }
  }
  return incoming;
}

export function machineOutputs(machine: MachineDef, out: Outputs): void {
  let incoming: Map<StateDef, string[]> | undefined;
  const binding = bindingNameNode(machine.node);
  out.symbols.push(
    lazySummary(
      {
        id: machine.symbolId,
        kind: "machine",
        name: machine.name,
        file: machine.at.file,
        nameRange: binding ? fullRange({ at: machine.at, node: binding }) : fullRange({ at: machine.at, node: machine.calleeNode }),
        range: fullRange(machine),
        detail: `${machine.states.length - 1} states`,
        exportName: machine.exportName,
      },
      () => {
        const requestNames = requestNamesOf(machine);
        return [
          `**machine** \`${machine.name}\`${machine.agent ? ` from agent \`${machine.agent.name}\`` : ""}${machine.exportName ? ` · exported as \`${machine.exportName}\`` : ""}`,
          `States: ${machine.states.length - 1}${machine.root.initial ? ` · initial \`${machine.root.initial.text}\`` : ""}`,
          requestNames ? `Requests: ${[...requestNames.requests].map((r) => `\`${r}\``).join(", ") || "none"}` : "",
        ].filter(Boolean).join("\n\n");
      },
    ),
  );
  machine.root.symbolId = machine.symbolId;
  for (const request of machine.inlineRequests.values()) {
    out.symbols.push(requestSymbol(request, machine.symbolId));
  }
  for (const state of machine.states) {
    const parent = state.parent;
    if (!parent) continue;
    const isInitial = parent.initial?.text === state.key || resolveInitial(parent)?.state === state;
    out.symbols.push(
      lazySummary(
        {
          id: state.symbolId,
          kind: "state",
          name: state.key,
          file: state.at.file,
          nameRange: nameRange({ at: state.at, node: state.keyNode ?? state.node }),
          range: fullRange(state),
          parentId: parent.parent ? parent.symbolId : machine.symbolId,
          detail: `${state.type}${isInitial ? " · initial" : ""}`,
        },
        () => {
          incoming ??= incomingOf(machine);
          const reached = reachability(machine);
          const outgoing = state.transitions.map((t) => `${t.event} → ${t.targets.map((x) => `\`${x.text}\``).join(", ") || "(no target)"}${t.dynamic ? " (computed)" : ""}`);
          const reachable = reached ? (reached.has(state) ? "yes" : "**no** — no transition from the initial state leads here") : machine.guessesCut ? "not known (too many unknown targets to guess what each would reach)" : "not known (some targets are computed at run time)";
          const invokes = state.invokes.map((i) => (i.src.kind === "string" ? `\`${i.src.text}\`` : i.src.kind === "request" ? `\`${i.src.name?.text ?? i.id?.text ?? "(unnamed request)"}\`` : "(logic)"));
          return [
            `**state** \`${state.path.join(".")}\` (${state.type}${isInitial ? ", initial" : ""}) in \`${machine.name}\``,
            state.id ? `id: \`#${state.id.text}\`` : "",
            invokes.length ? `Invokes: ${invokes.join(", ")}` : "",
            `Incoming: ${incoming.get(state)?.join(", ") || (isInitial ? "(initial)" : "none")}`,
            `Outgoing: ${outgoing.join("; ") || "none"}`,
            `Reachable: ${reachable}`,
          ].filter(Boolean).join("\n\n");
        },
      ),
    );
  }
  out.lenses.push({
    kind: "explore-paths",
    file: machine.at.file,
    range: fullRange({ at: machine.at, node: machine.calleeNode }),
    title: "Explore paths",
    target: { kind: "explore-paths", file: machine.at.file, machineExport: machine.exportName, machineId: machine.symbolId },
    // A generated explorePaths program imports the machine: an unexported one cannot run (its diagram can).
    ...(machine.exportName ? {} : { refused: `No **Explore paths** here: \`${machine.name}\` is not exported, so a generated run cannot import it. Export it, or call \`explorePaths\` in this file.` }),
  });
  machineReferences(machine, out);
  out.graphs.push(machineGraph(machine));
}

function machineReferences(machine: MachineDef, out: Outputs): void {
  const candidates = new TargetCandidates();
  for (const state of machine.states) {
    if (state.transitions.length) {
      // A source's list is its parent's shared sibling list plus its own children and the ids: built
      // on first read (completion asks for one reference), since copying the big sibling list for every
      // compound source is quadratic in wide machines.
      const list = candidates.sharedForSource(state) ?? candidates.lazyForSource(state);
      for (const t of state.transitions) {
        for (const target of t.targets) {
          const reference: AgentReference = {
            role: "target",
            kind: "state",
            file: target.at.file,
            range: nameRange(target),
            text: target.text,
            targetId: target.state?.symbolId,
          };
          out.references.push(typeof list === "function" ? lazyCandidates(reference, list) : ((reference.candidates = list), reference));
        }
      }
    }
    if (state.initial) {
      const children = [...state.children.values()];
      out.references.push({
        role: "initial",
        kind: "state",
        file: state.initial.at.file,
        range: nameRange(state.initial),
        text: state.initial.text,
        targetId: resolveInitial(state)?.state?.symbolId,
        candidates: children.map((c) => ({ insertText: c.key, kind: "state", symbolId: c.symbolId, detail: c.type })),
      });
    }
  }
  const srcCandidates = srcCandidatesOf(machine);
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind !== "string") continue;
    const request = machine.agent?.requests.get(src.text);
    const actor = machine.agent?.actors.get(src.text) ?? undefined;
    out.references.push({
      role: "src",
      kind: actor && !request ? "actor" : "request",
      file: src.at.file,
      range: nameRange(src),
      text: src.text,
      targetId: request?.symbolId ?? actor?.symbolId,
      candidates: srcCandidates,
    });
  }
}

function srcCandidatesOf(machine: MachineDef): CompletionCandidate[] {
  const out: CompletionCandidate[] = [];
  for (const r of machine.agent?.requests.values() ?? []) out.push({ insertText: r.name, kind: "request", symbolId: r.symbolId, detail: r.model ? `model: ${r.model.text}` : "request" });
  for (const a of machine.agent?.actors.values() ?? []) out.push({ insertText: a.text, kind: "actor", symbolId: a.symbolId, detail: "actor" });
  for (const [name] of machine.setupActors ?? []) out.push({ insertText: name, kind: "actor", detail: "actor" });
  return out;
}

function machineGraph(machine: MachineDef): AgentGraph {
  const graph: AgentGraph = { kind: "machine", id: machine.symbolId, name: machine.name, range: fullRange(machine), nodes: [], edges: [] };
  for (const state of machine.states) {
    if (!state.parent) continue;
    const isInitial = resolveInitial(state.parent)?.state === state;
    graph.nodes.push({
      id: state.symbolId,
      path: state.path.join("."),
      label: state.key,
      type: state.type,
      parent: state.parent.parent ? state.parent.symbolId : undefined,
      initial: isInitial,
      range: fullRange(state),
      file: state.at.file,
    });
  }
  for (const state of machine.states) {
    for (const t of state.transitions) {
      for (const target of t.targets) {
        if (target.state) graph.edges.push({ source: state.symbolId, target: target.state.symbolId, label: t.event, range: fullRange(t), file: t.at.file });
      }
    }
  }
  return graph;
}

// Why a seam lens is not offered (the hover where it would be says it).
const DECISION_SEAM = "No **Run seam** here: `runSeam` puts a *text* request under the seam and routes text requests only; a decision is answered by a `decide` executor. To run it, call `runAgent` (or `runSeam` on a text request of this machine) with `executors: { decide }`.";
const NOT_EXPORTED = (machine: MachineDef) => `No **Run seam** here: \`${machine.name}\` is not exported, so a generated seam run cannot import it. Export it (\`export const ${machine.name} = …\`), or call \`runSeam\` in this file.`;
const UNNAMED_SEAM = "No **Run seam** here: this request has no name and no invoke `id`, so a seam cannot address it (its name would be an id XState makes up). Give it a `name`.";

/** A run-seam anchor of `machine`'s request at `where`: a lens, or the reason there is none. */
function seamAnchor(machine: MachineDef, request: string, where: At, title = "Run seam", refused?: string): LensAnchor {
  return {
    kind: "run-seam",
    file: where.at.file,
    range: fullRange(where),
    title,
    target: { kind: "run-seam", file: machine.at.file, machineExport: machine.exportName, machineId: machine.symbolId, request },
    ...(refused ? { refused } : {}),
  };
}

/** On a declared request: a lens that runs its seam under the machine of the agent that invokes it — a
 *  request several machines share asks which (LensTarget.choices) — none for a decision or a request no
 *  exported machine invokes. */
function requestLenses(request: RequestDef, machinesOfAgent: MachineDef[], out: Outputs): void {
  const where = { at: request.at, node: request.nameNode };
  const users = machinesOfAgent.filter((m) => m.invokes.some((i) => i.src.kind === "string" && i.src.text === request.name));
  if (request.kind !== "text") {
    if (users[0]) out.lenses.push(seamAnchor(users[0], request.name, where, "Run seam", DECISION_SEAM));
    return;
  }
  const runnable = users.filter((m) => m.exportName);
  if (!runnable.length) {
    if (users[0]) out.lenses.push(seamAnchor(users[0], request.name, where, "Run seam", NOT_EXPORTED(users[0])));
    return;
  }
  const lens = seamAnchor(runnable[0]!, request.name, where, runnable.length > 1 ? `Run seam · ${runnable.length} machines…` : "Run seam");
  // Shared by machines: one lens that asks which (one lens each would not fit a line).
  if (runnable.length > 1) lens.target.choices = runnable.map((m) => ({ name: m.name, machineExport: m.exportName!, machineId: m.symbolId, file: m.at.file, line: m.at.sf.getLineAndCharacterOfPosition(m.node.getStart(m.at.sf)).line + 1 }));
  out.lenses.push(lens);
}

/** On each invoke of a request: a lens where runSeam can put it under the seam (a text request with a
 *  name or an invoke id, of an exported machine); elsewhere the reason there is none. */
export function invokeLenses(machine: MachineDef, out: Outputs): void {
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind === "string") {
      const request = machine.agent?.requests.get(src.text);
      if (!request) continue;
      const refused = request.kind !== "text" ? DECISION_SEAM : !machine.exportName ? NOT_EXPORTED(machine) : undefined;
      out.lenses.push(seamAnchor(machine, src.text, src, "Run seam", refused));
    } else if (src.kind === "request") {
      const where = { at: src.at, node: ts.isCallExpression(src.node) ? src.node.expression : src.node };
      const request = src.name?.text ?? invoke.id?.text;
      const refused = src.logic !== "text" ? DECISION_SEAM : !request ? UNNAMED_SEAM : !machine.exportName ? NOT_EXPORTED(machine) : undefined;
      out.lenses.push(seamAnchor(machine, request ?? "", where, "Run seam", refused));
    }
  }
}

export function evalOutputs(call: EvalCall, out: Outputs): void {
  const machine = call.machine;
  const names = machine ? requestNamesOf(machine) : undefined;
  const requestSymbol = (name: string) => machine?.agent?.requests.get(name)?.symbolId ?? machine?.inlineRequests.get(name)?.symbolId;
  const modelSymbol = (name: string) => machine?.agent?.models.get(name)?.symbolId;
  const requestCandidates: CompletionCandidate[] = names ? [...names.requests].map((r) => ({ insertText: r, kind: "request" as const, symbolId: requestSymbol(r), detail: "request" })) : [];
  const keyCandidates: CompletionCandidate[] = names ? [...requestCandidates, ...[...names.models].filter((m) => !names.requests.has(m)).map((m) => ({ insertText: m, kind: "model" as const, symbolId: modelSymbol(m), detail: "model key" }))] : [];
  for (const key of call.scripts) {
    const req = requestSymbol(key.text);
    const model = req ? undefined : modelSymbol(key.text);
    out.references.push({ role: "script-key", kind: model ? "model" : "request", file: key.at.file, range: nameRange(key), text: key.text, targetId: req ?? model, candidates: keyCandidates });
  }
  if (call.seamRequest) {
    const s = call.seamRequest;
    out.references.push({ role: "seam-request", kind: "request", file: s.at.file, range: nameRange(s), text: s.text, targetId: requestSymbol(s.text), candidates: requestCandidates });
  }
  if (call.stateRefs.length && machine) {
    const stateCandidates: CompletionCandidate[] = machine.states.filter((s) => s.parent).map((s) => ({ insertText: s.path.join("."), kind: "state", symbolId: s.symbolId, detail: s.type }));
    for (const ref of call.stateRefs) out.references.push(stateRef(machine, ref, stateCandidates));
  }
  if (machine) for (const path of call.stateValueRefs) stateValueReferences(machine, path, out);
  if (call.api === "runSeam") {
    const at = call.at;
    const line = at.sf.getLineAndCharacterOfPosition(call.node.getStart(at.sf)).line + 1;
    out.lenses.push({
      kind: "run-seam",
      file: at.file,
      range: fullRange({ at, node: (call.node as ts.CallExpression).expression }),
      title: "Run seam",
      target: { kind: "run-seam", file: at.file, line, machineId: machine?.symbolId, request: call.seamRequest?.text },
    });
  }
}

function stateRef(machine: MachineDef, ref: Text, candidates: CompletionCandidate[]): AgentReference {
  const target = machine.states.find((s) => s.parent && (s.path.join(".") === ref.text || ("#" + (s.id?.text ?? "")) === ref.text)) ?? machine.states.find((s) => s.parent && s.key === ref.text);
  return { role: "state-ref", kind: "state", file: ref.at.file, range: nameRange(ref), text: ref.text, targetId: target?.symbolId, candidates };
}

/** `{ review: "editing" }`: each key (and the leaf value) names a child of the state above it. */
function stateValueReferences(machine: MachineDef, path: Text[], out: Outputs): void {
  let state: StateDef | undefined = machine.root;
  for (const segment of path) {
    const parent: StateDef | undefined = state;
    state = parent?.children.get(segment.text);
    const candidates: CompletionCandidate[] = [...(parent?.children.values() ?? [])].map((c) => ({ insertText: c.key, kind: "state", symbolId: c.symbolId, detail: c.type }));
    out.references.push({ role: "state-ref", kind: "state", file: segment.at.file, range: nameRange(segment), text: segment.text, targetId: state?.symbolId, candidates });
  }
}
