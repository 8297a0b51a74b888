// on-done-outside-compound-state: a state's own `onDone` (not its invoke's) on a state with no child
// states. XState raises a state's done event only for a compound state whose final child is entered, or a
// parallel state whose regions are all done (v5, and the bundled v6.0.0-alpha.52 alike), so this
// transition never fires; the common slip is an invoke's `onDone` written one level too high. The library's
// own lint (eslint-plugin-xstate's no-ondone-outside-compound-state) forbids it for the same reason. Only a
// state read whole is judged (a spread or computed part could add child states), and never the root.
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef, StateDef, TransitionDef } from "../model";
import { finding, machineLabel } from "./finding";

/** The `onDone:` property of a state's own done transition (an invoke's is not one). */
function ownOnDone(state: StateDef, t: TransitionDef): ts.PropertyAssignment | undefined {
  const prop = t.node.parent;
  if (t.event !== "done" || !prop || !ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.name) || prop.name.text !== "onDone") return undefined;
  const owner = prop.parent;
  if (state.invokes.some((invoke) => invoke.node === owner)) return undefined;
  // inside `invoke: { ... }` or `invoke: [{ ... }]` though not read as an invoke: not the state's own
  for (let n: ts.Node | undefined = owner.parent; n && !ts.isObjectLiteralExpression(n); n = n.parent) {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === "invoke") return undefined;
  }
  return prop;
}

export const onDoneOutsideCompoundState: CheckDescriptor<MachineDef> = {
  code: "on-done-outside-compound-state",
  severity: "warning",
  description: "A state with no child states has its own onDone, which XState never takes (did you mean the invoke's onDone?).",
  when: "a state with no child states has its own `onDone` (not inside its `invoke`): XState never takes it — an invoke's `onDone` written one level too high",
  docs: "a state that is not the root, read whole, with no child states (atomic, `final` or `history`) has a state-level `onDone`: XState raises a state's done event only for a compound state entering a final child or a parallel state whose regions are done (v5 and the bundled v6 alpha; eslint-plugin-xstate's `no-ondone-outside-compound-state`), so it never fires; the message points at the invoke when the state has one. Silent when the state's config has parts that cannot be read",
  run(machine) {
    const out: Finding[] = [];
    for (const state of machine.states) {
      if (!state.parent || state.children.size > 0 || !state.childrenComplete || !state.configComplete) continue;
      if (state.type !== "atomic" && state.type !== "final" && state.type !== "history") continue;
      for (const t of state.transitions) {
        const prop = ownOnDone(state, t);
        if (!prop) continue;
        const hint = state.invokes.length ? ` To go on when its invoke is done, move it into the invoke: invoke: { src, onDone }.` : "";
        const message = `State "${state.path.join(".")}" of ${machineLabel(machine)} has no child states, so its own onDone never fires: XState takes a state's onDone only when a compound state reaches a final child or a parallel state's regions are all done.${hint}`;
        out.push(finding("on-done-outside-compound-state", message, { at: t.at, node: prop.name }));
      }
    }
    return out;
  },
};
