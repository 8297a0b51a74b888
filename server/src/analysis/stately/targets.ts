// XState target semantics: "#id(.child)*" by id, ".child" relative to the source state, "sibling(.child)*"
// relative to the source's parent; a root transition may only use ".child" or "#id". Reachability
// follows entry semantics: entering a state enters its ancestors, a compound enters its initial, a
// parallel enters every region. Guards are ignored, so a state reported unreachable really is.
import { CUT, GuessBudget, NameList, nearestIn } from "../util/name-index";
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
function isFullyKnown(machine: MachineDef): boolean {
  for (const s of machine.states) {
    if (!s.configComplete || !s.childrenComplete || s.initialDynamic) return false;
    for (const t of s.transitions) {
      if (t.dynamic) return false;
      for (const target of t.targets) if (target.status === "open") return false;
    }
  }
  return true;
}

/** The reachable states, or null when the machine has computed parts or when a guess it needed was cut
 *  (util/name-index.ts: it would otherwise have to guess what the target reaches); memoized on the machine. */
export function reachability(machine: MachineDef): Set<StateDef> | null {
  if (machine.reachable === undefined) machine.reachable = isFullyKnown(machine) ? reachableStates(machine) : null;
  return machine.reachable;
}

/** The states some chain of transitions enters from the initial state, or null when a guess was cut. An
 *  unknown target counts as reaching the state its nearest-name fix would name (the typo is reported once,
 *  not twice). */
export function reachableStates(machine: MachineDef, inWalkOrder = machine.states.some(isParallel)): Set<StateDef> | null {
  const reached = new Reachability().of(machine, inWalkOrder);
  machine.guessesCut = reached === null;
  return reached;
}

/** The walk behind `reachableStates`; its steps are methods, not closures made per call (util/shapes.ts). */
class Reachability {
  private readonly reached = new Set<StateDef>();
  private readonly queue: StateDef[] = [];
  /** The states each unknown target's last name guesses (a renamed state leaves every target of it
   *  unknown: one guess per name, not per target). */
  private readonly guessed = new Map<string, StateDef[]>();
  /** The state keys, for nearest-name guesses, and the states by key (built once, when needed). */
  private keys: NameList | undefined = undefined;
  private byKey: Map<string, StateDef[]> | undefined = undefined;
  private readonly budget = new GuessBudget();
  /** History states being entered (a history entering itself again is a loop, not a state). */
  private readonly inHistory = new Set<StateDef>();

  /** Without parallel states the walk's result does not depend on its order (entering a parallel state
   *  skips regions entered before), so the guesses can wait until what the known targets reach is known:
   *  when that is every state, no guess is needed. With parallel states they are made in walk order. */
  of(machine: MachineDef, inWalkOrder: boolean): Set<StateDef> | null {
    const queue = this.queue;
    const later = inWalkOrder ? undefined : ([] as string[]);
    let next = 0;
    this.enterDefault(machine.root);
    for (let i = 0; ; i++) {
      if (i === queue.length) {
        if (!later || next === later.length || this.reached.size === machine.states.length) break;
        if (!this.enterGuess(machine, later[next++]!)) return null;
        i--;
        continue;
      }
      const s = queue[i]!;
      for (const t of s.transitions) {
        for (const target of t.targets) {
          if (target.state) this.enterPath(target.state);
          else if (target.status !== "unknown" || this.reached.size === machine.states.length) continue;
          else if (later) later.push(target.text);
          else if (!this.enterGuess(machine, target.text)) return null;
        }
      }
    }
    return this.reached;
  }

  /** Enter the states an unknown target's nearest-name fix would name; false when the guess was cut. */
  private enterGuess(machine: MachineDef, text: string): boolean {
    const name = text.split(".").pop()!.replace(/^#/, "");
    let states = this.guessed.get(name);
    if (states === undefined) {
      if (!this.keys) {
        this.keys = new NameList(machine.states.map((x) => x.key));
        this.byKey = new Map();
        for (const g of machine.states) {
          const list = this.byKey.get(g.key);
          if (list) list.push(g);
          else this.byKey.set(g.key, [g]);
        }
      }
      const guess = nearestIn(name, [this.keys], this.budget);
      if (guess === CUT) return false;
      states = guess === undefined ? [] : this.byKey!.get(guess) ?? [];
      this.guessed.set(name, states);
    }
    for (const g of states) this.enterPath(g);
    return true;
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
      // A history state with no target of its own enters its parent's initial; when that is the history
      // state itself (or leads back to it), as when no usable initial: any child.
      const parent = s.parent;
      if (parent && !s.transitions.some(isHistoryTransition) && !this.inHistory.has(s)) {
        this.inHistory.add(s);
        const initial = resolveInitial(parent);
        if (initial?.state && initial.state !== s) this.enterDefault(initial.state);
        else for (const c of parent.children.values()) if (c !== s) this.enterDefault(c);
        this.inHistory.delete(s);
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

const isParallel = (s: StateDef) => s.type === "parallel";
const isHistoryTransition = (t: TransitionDef) => t.event === "history";

// Kept so the class's map outlives each analysis (util/shapes.ts).
keepShape(new Reachability());
