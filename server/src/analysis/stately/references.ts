// The stately references, each with what completion offers there: transition targets, initials and invoke
// srcs of a machine; scripts keys, seam requests and state refs (names and state-value keys) of an eval call.
import type { AgentReference, CompletionCandidate } from "../api";
import { lazyCandidates } from "../util/lazy";
import type { EvalCall, MachineDef, StateDef, Text } from "./model";
import { requestNamesOf } from "./names";
import { nameRange, type Outputs } from "./output-parts";
import { TargetCandidates } from "./target-candidates";
import { resolveInitial } from "./targets";

export function machineReferences(machine: MachineDef, out: Outputs): void {
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

/** An eval call's names: scripts keys, the seam request, state refs and state-value keys. */
export function evalReferences(call: EvalCall, out: Outputs): void {
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
