// XState target semantics: "#id(.child)*" by id, ".child" relative to the source state, "sibling(.child)*"
// relative to the source's parent; a root transition may only use ".child" or "#id". Reachability
// follows entry semantics: entering a state enters its ancestors, a compound enters its initial, a
// parallel enters every region. Guards are ignored, so a state reported unreachable really is.
import { nearestName } from "../util/edit-distance";
import type { CompletionCandidate } from "../api";
import type { MachineDef, StateDef, TransitionDef } from "./model";
import { keepShape } from "../util/shapes";

export interface TargetResolution {
  status: "ok" | "unknown" | "open";
  state?: StateDef;
  /** Why it names nothing, for the message. */
  reason?: string;
}

export function resolveTarget(source: StateDef, text: string): TargetResolution {
  const machine = source.machine;
  if (text.startsWith("#")) {
    // ids may themselves contain dots only when written explicitly; try the longest matching id first
    const whole = machine.idMap.get(text.slice(1)); // the common case: the whole text is an id
    if (whole) return { status: "ok", state: whole };
    const segments = text.slice(1).split(".");
    for (let n = segments.length - 1; n >= 1; n--) {
      const candidate = machine.idMap.get(segments.slice(0, n).join("."));
      if (candidate) return descend(candidate, segments.slice(n));
    }
    return machine.idsComplete ? { status: "unknown", reason: `no state has the id "${segments[0]}"` } : { status: "open" };
  }
  if (text.startsWith(".")) return descend(source, text.slice(1).split("."));
  if (!source.parent) return { status: "unknown", reason: `a root transition must target a child as ".${text}"` };
  return descend(source.parent, text.split("."));
}

function descend(base: StateDef, segments: string[]): TargetResolution {
  let current = base;
  for (const seg of segments) {
    if (seg === "") break;
    const child = current.children.get(seg);
    if (!child) {
      if (!current.childrenComplete) return { status: "open" };
      return { status: "unknown", reason: current.parent || current.path.length ? `"${current.path.join(".")}" has no child "${seg}"` : `the machine has no state "${seg}"` };
    }
    current = child;
  }
  return { status: "ok", state: current };
}

export function resolveTargets(machine: MachineDef): void {
  for (const state of machine.states) {
    for (const t of state.transitions) {
      for (const target of t.targets) {
        const r = resolveTarget(state, target.text);
        target.status = r.status;
        target.state = r.state;
      }
    }
  }
}

/** `initial` relative to the state itself (a child key, or a dotted path into its children). */
export function resolveInitial(state: StateDef): TargetResolution | undefined {
  if (!state.initial) return undefined;
  // Asked once per child by symbols and graphs, and again by reachability and checks: read once per
  // state (the tree and its ids are complete when anyone asks).
  let memo = initialMemo.get(state);
  if (!memo) initialMemo.set(state, (memo = resolveInitialUncached(state, state.initial.text)));
  return memo;
}

const initialMemo = new WeakMap<StateDef, TargetResolution>();

function resolveInitialUncached(state: StateDef, text: string): TargetResolution {
  if (text.startsWith("#")) return resolveTarget(state, text);
  return descend(state, text.replace(/^\./, "").split("."));
}

/** A state named in an eval (canReach, matchesTrajectory): a key anywhere, a dotted path from the root,
 *  "#id", or a state-node id written without "#" (canReach takes "a state path or state-node ID"). */
export function resolveStateRef(machine: MachineDef, text: string): StateDef | undefined | "open" {
  if (text.startsWith("#")) {
    const r = resolveTarget(machine.root, text);
    return r.status === "open" ? "open" : r.state;
  }
  const byPath = descend(machine.root, text.split("."));
  if (byPath.state) return byPath.state;
  const last = text.split(".").pop()!;
  const matches = machine.states.filter((s) => s.key === last && s.path.join(".").endsWith(text));
  if (matches.length) return matches[0];
  const byId = machine.idMap.get(text);
  if (byId) return byId;
  return !machine.idsComplete || machine.states.some((s) => !s.childrenComplete) ? "open" : undefined;
}

/** Whether reachability can be judged: every transition and every state config statically known. */
export function isFullyKnown(machine: MachineDef): boolean {
  for (const s of machine.states) {
    if (!s.configComplete || !s.childrenComplete || s.initialDynamic) return false;
    for (const t of s.transitions) {
      if (t.dynamic) return false;
      for (const target of t.targets) if (target.status === "open") return false;
    }
  }
  return true;
}

/** The reachable states, or null when the machine has computed parts (memoized on the machine). */
export function reachability(machine: MachineDef): Set<StateDef> | null {
  if (machine.reachable === undefined) machine.reachable = isFullyKnown(machine) ? reachableStates(machine) : null;
  return machine.reachable;
}

/** The states some chain of transitions enters from the initial state. An unknown target counts as
 *  reaching the state its nearest-name fix would name (the typo is reported once, not twice). */
export function reachableStates(machine: MachineDef): Set<StateDef> {
  return new Reachability().of(machine);
}

/** The walk behind `reachableStates`; its steps are methods, not closures made per call (util/shapes.ts). */
class Reachability {
  private readonly reached = new Set<StateDef>();
  private readonly queue: StateDef[] = [];
  /** The states each unknown target's last name guesses (a renamed state leaves every target of it
   *  unknown: one guess per name, not per target). */
  private readonly guessed = new Map<string, StateDef[]>();
  /** The state keys, for nearest-name guesses (built once, when needed). */
  private keys: string[] | undefined = undefined;

  of(machine: MachineDef): Set<StateDef> {
    const queue = this.queue;
    this.enterDefault(machine.root);
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      for (const t of s.transitions) {
        for (const target of t.targets) {
          if (target.state) this.enterPath(target.state);
          else if (target.status === "unknown") this.enterGuess(machine, target.text);
        }
      }
    }
    return this.reached;
  }

  /** Enter the states an unknown target's nearest-name fix would name. */
  private enterGuess(machine: MachineDef, text: string): void {
    const name = text.split(".").pop()!.replace(/^#/, "");
    let states = this.guessed.get(name);
    if (states === undefined) {
      const guess = nearestName(name, (this.keys ??= machine.states.map((x) => x.key)));
      states = [];
      if (guess !== undefined) for (const g of machine.states) if (g.key === guess) states.push(g);
      this.guessed.set(name, states);
    }
    for (const g of states) this.enterPath(g);
  }

  private mark(s: StateDef): void {
    if (!this.reached.has(s)) {
      this.reached.add(s);
      this.queue.push(s);
    }
  }

  private enterDefault(s: StateDef): void {
    this.mark(s);
    if (s.type === "parallel") {
      for (const c of s.children.values()) this.enterDefault(c);
    } else if (s.type === "compound") {
      const initial = resolveInitial(s);
      if (initial?.state && initial.state !== s) this.enterPath(initial.state, s);
      else for (const c of s.children.values()) this.enterDefault(c); // no usable initial: assume any child
    } else if (s.type === "history") {
      const parent = s.parent;
      if (parent && !s.transitions.some(isHistoryTransition)) {
        const initial = resolveInitial(parent);
        if (initial?.state) this.enterDefault(initial.state);
        else for (const c of parent.children.values()) if (c !== s) this.enterDefault(c);
      }
    }
  }

  /** Enter `target` from above `upTo`: the states between are entered, and every parallel one on the way
   *  enters its other regions too. */
  private enterPath(target: StateDef, upTo?: StateDef): void {
    this.enterDefault(target);
    let child = target;
    let parent = target.parent;
    while (parent && parent !== upTo) {
      this.mark(parent);
      if (parent.type === "parallel") for (const region of parent.children.values()) if (region !== child && !this.reached.has(region)) this.enterDefault(region);
      child = parent;
      parent = parent.parent;
    }
  }
}

const isHistoryTransition = (t: TransitionDef) => t.event === "history";

/** The targets valid from a source state, for completion and typo fixes: siblings, their children
 *  ("sibling.child"), own children (".child"), and explicit ids ("#id"). Candidate objects and the
 *  sibling lists are shared (one per parent), which keeps this linear in big machines. */
export class TargetCandidates {
  private readonly byParent = new Map<StateDef | undefined, CompletionCandidate[]>();
  private readonly ids = new Map<MachineDef, CompletionCandidate[]>();

  forSource(source: StateDef): CompletionCandidate[] {
    const siblings = this.siblings(source.parent);
    const ids = this.idTargets(source.machine);
    if (source.children.size === 0 && ids.length === 0) return siblings;
    const own: CompletionCandidate[] = [];
    for (const c of source.children.values()) own.push(candidate("." + c.key, c));
    return siblings.concat(own, ids);
  }

  /** A source's list built on first call, from light lists only (the closure keeps no model: a settled
   *  analysis must not hold its file's tree). */
  lazyForSource(source: StateDef): () => CompletionCandidate[] {
    const siblings = this.siblings(source.parent);
    const ids = this.idTargets(source.machine);
    const own: CompletionCandidate[] = [];
    for (const c of source.children.values()) own.push(candidate("." + c.key, c));
    let built: CompletionCandidate[] | undefined;
    return () => (built ??= siblings.concat(own, ids));
  }

  /** The shared list when a source's candidates are just its siblings (no copy needed), else undefined. */
  sharedForSource(source: StateDef): CompletionCandidate[] | undefined {
    return source.children.size === 0 && this.idTargets(source.machine).length === 0 ? this.siblings(source.parent) : undefined;
  }

  /** Just the texts (for nearest-name fixes). */
  textsFor(source: StateDef): string[] {
    return this.forSource(source).map((c) => c.insertText);
  }

  private siblings(parent: StateDef | undefined): CompletionCandidate[] {
    let list = this.byParent.get(parent);
    if (!list) {
      list = [];
      for (const s of parent?.children.values() ?? []) {
        list.push(candidate(s.key, s));
        for (const c of s.children.values()) list.push(candidate(`${s.key}.${c.key}`, c));
      }
      this.byParent.set(parent, list);
    }
    return list;
  }

  private idTargets(machine: MachineDef): CompletionCandidate[] {
    let list = this.ids.get(machine);
    if (!list) {
      list = machine.states.filter((s) => s.id).map((s) => candidate("#" + s.id!.text, s));
      this.ids.set(machine, list);
    }
    return list;
  }
}

function candidate(insertText: string, state: StateDef): CompletionCandidate {
  return { insertText, kind: "state", symbolId: state.symbolId, detail: state.type };
}

// Kept so the class's map outlives each analysis (util/shapes.ts).
keepShape(new TargetCandidates());
keepShape(new Reachability());
