// What a run visited, for agent coverage (issue 27): every state node entered, every transition taken (by
// source, event as written in the config, and target) and every request invoked. Recorded only under the
// harness (RunTrace makes one when a reporter listens), through the actor system's inspection, whose
// `@xstate.transition` events carry the microsteps of a macrostep: states a run passes through within one
// macrostep (an `always` router, a transient choice) never show in a snapshot.
import type { MachineVisitedReport } from "../shared/report";
import type { AnyActorRef, AnyStateMachine, InspectionEvent } from "./xstate";

/** The parts of xstate's state node and transition definition read here (v6 keeps them on the artifact). */
interface NodeView {
  path: string[];
  type: string;
  parent?: NodeView;
  states?: Record<string, NodeView>;
  initial?: { target?: NodeView[] };
}
interface TransitionView {
  source: NodeView;
  target?: NodeView[];
  eventType: string;
  delay?: unknown;
  to?: unknown;
}

const dotted = (node: NodeView): string => node.path.join(".");

/** The event as the machine's config writes it, so it matches the analysis' transition labels. */
function eventLabel(t: TransitionView): string {
  const type = t.eventType;
  if (t.source.type === "history") return "history";
  if (type === "") return t.source.type === "choice" ? "choice" : "always";
  if (type.startsWith("xstate.done.")) return "done";
  if (type.startsWith("xstate.error.actor")) return "error";
  if (type.startsWith("xstate.snapshot.")) return "snapshot";
  if (type.startsWith("xstate.after")) return `after ${String(t.delay)}`;
  return type;
}

/** Every state path of the machine (the root excluded): what ties a report to one of the analysis' machines. */
const shapes = new WeakMap<object, string[]>();
function statePathsOf(machine: AnyStateMachine): string[] {
  let paths = shapes.get(machine);
  if (!paths) {
    paths = [];
    const walk = (node: NodeView): void => {
      if (node.path.length) paths!.push(dotted(node));
      for (const child of Object.values(node.states ?? {})) walk(child);
    };
    walk(machine.root as unknown as NodeView);
    shapes.set(machine, paths);
  }
  return paths;
}

/** Paths of the nodes a state value makes active: every leaf and each of its ancestors. */
function activePaths(value: unknown, prefix: string, out: Set<string>): void {
  if (typeof value === "string") {
    out.add(prefix ? `${prefix}.${value}` : value);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.add(path);
    activePaths(child, path, out);
  }
}

export class MachineVisited {
  private machineId = "";
  private paths: string[] = [];
  private readonly states = new Set<string>();
  private readonly transitions = new Map<string, { source: string; event: string; targets: string[]; inferred?: true }>();
  private readonly requests = new Set<string>();
  /** Active state paths after the last macrostep (empty before a leg starts: its start enters them). */
  private active = new Set<string>();

  /** Before the actor starts: records its root machine's macrosteps. */
  attach(actor: AnyActorRef): void {
    const machine = (actor as unknown as { logic: AnyStateMachine }).logic;
    this.machineId = String((machine as { id?: unknown }).id ?? "");
    this.paths = statePathsOf(machine);
    this.active = new Set();
    (actor as unknown as { system: { inspect(observer: (event: InspectionEvent) => void): unknown } }).system.inspect((ev) => {
      if (ev.type !== "@xstate.transition" || (ev.actorRef as unknown) !== actor) return;
      try {
        this.macrostep((ev.snapshot as { value?: unknown }).value, ev.microsteps as unknown as TransitionView[]);
      } catch {
        // coverage must never change what the run does
      }
    });
  }

  request(name: string): void {
    this.requests.add(name);
  }

  private macrostep(value: unknown, microsteps: TransitionView[]): void {
    const next = new Set<string>();
    activePaths(value, "", next);
    const entered = new Set<string>();
    for (const path of next) if (!this.active.has(path)) entered.add(path);
    // a transition's source was active (entered now, when the run only passed through it)
    const within = (node: NodeView | undefined): void => {
      for (let n = node; n && n.path.length; n = n.parent) entered.add(dotted(n));
    };
    const enter = (node: NodeView): void => {
      within(node);
      // entering a compound state enters its initial child; a parallel one, every region
      if (node.type === "compound") for (const t of node.initial?.target ?? []) enter(t);
      else if (node.type === "parallel") for (const child of Object.values(node.states ?? {})) enter(child);
    };
    for (const t of microsteps) {
      within(t.source);
      for (const target of t.target ?? []) enter(target);
    }
    const left = new Set<string>();
    for (const t of microsteps) {
      const source = dotted(t.source);
      left.add(source);
      const event = eventLabel(t);
      // A transition written as a function (`({ output }) => ({ target })`) picks its target when taken;
      // it is credited with what this macrostep entered, but for the states the run was leaving (the
      // analysis then keeps only the targets it can go to).
      const dynamic = !t.target && typeof t.to === "function";
      const targets = t.target ? t.target.map(dotted) : dynamic ? [...entered].filter((p) => !left.has(p)) : [];
      const key = `${source}\n${event}\n${targets.join(",")}`;
      if (!this.transitions.has(key)) this.transitions.set(key, { source, event, targets, ...(dynamic ? { inferred: true as const } : {}) });
    }
    for (const path of entered) this.states.add(path);
    this.active = next;
  }

  report(): MachineVisitedReport {
    return {
      machine: { id: this.machineId, states: this.paths },
      states: [...this.states],
      transitions: [...this.transitions.values()],
      requests: [...this.requests],
    };
  }
}
