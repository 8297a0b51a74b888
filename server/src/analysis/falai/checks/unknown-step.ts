// unknown-step: a `then`, `else`, `onFail`, a branch's `then` or a `{ step }` jump names no step of the
// flow (and is not "end"). The agent refuses such a flow when it is built.
import type { CheckDescriptor } from "../../check";
import type { FalaiFileModel } from "../model";
import type { Finding } from "../../types";
import { CUT, GuessBudget, NameList, nearestIn } from "../../util/name-index";
import { didYouMean, finding, suggestedFix } from "./finding";
import { forEachNext, stepIds } from "../walk";

/** Each guess through the flow's candidate index; the file's guesses share one budget (util/name-index.ts),
 *  past which the remaining findings carry none. */
export const unknownStep: CheckDescriptor<FalaiFileModel> = {
  code: "unknown-step",
  severity: "error",
  description: "A then / else / onFail / branch then names no step of the flow and is not \"end\".",
  when: "`then` / `else` / `onFail` / a branch's `then` names no step of the flow and is not `\"end\"`",
  docs: "`then` / `else` / `onFail` / a branch's `then` / `{ step }` names no step of the flow and is not `\"end\"`",
  quickFix: "nearest step",
  run: (model) => {
    const out: Finding[] = [];
    const budget = new GuessBudget();
    for (const flow of model.flows) {
      if (!flow.stepsStatic) continue;
      const ids = stepIds(flow);
      const known = new Set(ids);
      let candidates: NameList | undefined;
      for (const step of flow.steps) {
        forEachNext(step, (next) => {
          if (next.kind !== "step" || known.has(next.step.text) || next.step.unterminated) return;
          const ref = next.step;
          const guess = nearestIn(ref.text, [(candidates ??= new NameList([...ids, "end"]))], budget);
          const { fix, suggestion } = suggestedFix(model.file, ref, guess === CUT ? undefined : guess);
          const where = flow.id ? ` of flow '${flow.id.text}'` : "";
          out.push(finding("unknown-step", `'${ref.text}' is no step${where} (nor "end").${didYouMean(suggestion)}`, model.file, ref.full, fix ? [fix] : undefined));
        });
      }
    }
    return out;
  },
};
