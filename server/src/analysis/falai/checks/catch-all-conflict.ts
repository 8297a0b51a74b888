// catch-all-conflict: a catch-all flow (`message: []`) that can never start, because an earlier catch-all
// of the same agent always takes the message: its trigger has no `if` and `repeat: "always"`, and its run
// always ends in the turn that started it. When no flow wins a message the first eligible catch-all starts,
// and one whose run is still live is not eligible (`already-running`: the next one starts), so a catch-all
// that can leave its run live blocks nothing. What can: a `wait` or `wait-event` step (parks it), a `do`
// step (the action may `defer`, parking it), a talk step that collects or asks fields (waits for them), a
// second talk step (one speaks per turn; a later one waits for the next message), `onEnd` other than "end"
// (`stay` keeps the run, `reset` starts it again), and anything not read (an unknown step kind, unreadable
// steps, triggers or flow). So only `say` and `if` steps and one prompt-only talk step (it speaks and moves
// on) make a blocker. (Two catch-alls are fine otherwise: with the default `repeat: "once"` the second takes
// over once the first has run, and an `if` gates each one.)
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import type { FlowModel } from "../model";
import { finding } from "./finding";

const catchAll = (flow: FlowModel) => flow.triggers.find((t) => t.catchAll);

/** The flow's run always ends in the turn that started it (see above): nothing of it is live on the next message. */
function endsInItsTurn(flow: FlowModel): boolean {
  if (!flow.complete || !flow.triggersStatic || !flow.stepsStatic) return false;
  if (flow.onEnd !== undefined && flow.onEnd !== "end") return false;
  let talks = 0;
  for (const step of flow.steps) {
    if (!step.complete) return false;
    if (step.kind === "say" || step.kind === "if") continue;
    if (step.kind !== "talk" || step.asksFields || ++talks > 1) return false;
  }
  return true;
}

export const catchAllConflict: CheckDescriptor<FalaiFileModel> = {
  code: "catch-all-conflict",
  severity: "warning",
  description: "A catch-all flow (message: []) can never start: an earlier catch-all of the agent always takes the message.",
  when: "a catch-all (`message: []`) that never starts: an earlier one of the agent has no `if` and repeats always",
  docs: "a catch-all flow (`message: []`) that never starts: an earlier catch-all of the same agent has no `if`, `repeat: \"always\"`, and a run that always ends in the turn it starts (every step read: `say`, `if`, at most one talk step with no `collect` / `ask`; `onEnd` absent or `\"end\"`)",
  run: (model) => {
    const out: Finding[] = [];
    for (const agent of model.agents) {
      if (!agent.flowsStatic) continue;
      let winner: FlowModel | undefined;
      for (const entry of agent.flows) {
        const t = catchAll(entry.flow);
        if (!t || entry.flow === winner) continue;
        if (winner) {
          const a = entry.flow.id ? `'${entry.flow.id.text}'` : "this flow";
          const at = entry.flow.file === model.file ? (t.keyRange ?? t.range) : entry.refRange;
          out.push(finding("catch-all-conflict", `Flow ${a} is a catch-all (message: []) that never starts: '${winner.id?.text ?? "an earlier flow"}' comes first in this agent, has no \`if\`, repeats always and its run ends in the turn it starts, so it takes every message nothing else claims.`, model.file, at));
        } else if (!t.hasIf && t.repeat === "always" && endsInItsTurn(entry.flow)) winner = entry.flow;
      }
    }
    return out;
  },
};
