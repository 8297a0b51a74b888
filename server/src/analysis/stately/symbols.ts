// The stately symbols: agents, their requests, models and actors, machines, inline requests and states,
// with hover summaries (a machine's and a state's built on first read).
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { AgentSymbol } from "../api";
import { lazySummary } from "../util/lazy";
import { bindingNameNode } from "../util/ts-nodes";
import type { AgentDef, MachineDef, RequestDef, StateDef } from "./model";
import { requestNamesOf } from "./names";
import { fullRange, nameRange, type Outputs } from "./output-parts";
import { reachability, resolveInitial } from "./targets";

const MAX_SNIPPET = 600;

function snippet(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > MAX_SNIPPET ? text.slice(0, MAX_SNIPPET) + " …" : text;
}

export function agentSymbols(agent: AgentDef, out: Outputs): void {
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
  for (const request of agent.requests.values()) out.symbols.push(requestSymbol(request, agent.symbolId));
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

/** The machine's symbol, its inline requests' and its states' (hover summaries built on first read). */
export function machineSymbols(machine: MachineDef, out: Outputs): void {
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
}
