// catch-all-conflict: a catch-all flow (`message: []`) that can never start, because an earlier catch-all
// of the same agent has no `if` and `repeat: "always"`: when no flow wins a message, the first eligible
// catch-all starts, and that one always is. (Two catch-alls are fine otherwise: with the default
// `repeat: "once"` the second takes over once the first has run, and an `if` gates each one.)
import type { Finding } from "../../types";
import type { FlowModel } from "../model";
import { finding, type FalaiCheck } from "./finding";

const catchAll = (flow: FlowModel) => flow.triggers.find((t) => t.catchAll);

export const catchAllConflict: FalaiCheck = (model) => {
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
        out.push(finding("catch-all-conflict", `Flow ${a} is a catch-all (message: []) that never starts: '${winner.id?.text ?? "an earlier flow"}' comes first in this agent, has no \`if\` and repeats always, so it takes every message nothing else claims.`, model.file, at));
      } else if (!t.hasIf && t.repeat === "always") winner = entry.flow;
    }
  }
  return out;
};
