// Every check of the state-machine side. A machine check is one descriptor per file (../../check.ts),
// listed by generated-registry.ts (scripts/gen-checks.mjs writes it from this folder's files, in file name
// order); the eval checks (evals.ts, scripted-keys.ts) are still functions over eval calls. Each returns raw
// findings; suppression and severity are applied by the workspace.
import { reportAnalysisError } from "../../errors";
import type { Finding } from "../../types";
import type { EvalCall, MachineDef } from "../model";
import { checkEvalCall } from "./evals";
import { checkScriptedExecutorKeys } from "./scripted-keys";
import { STATELY_MACHINE_CHECKS } from "./generated-registry";
import { checkSkippedNesting } from "./skipped-nesting";
import { unknownTarget } from "./unknown-target";
import { unreachableState } from "./unreachable-state";

/** The checks a transition target's text decides: an edit inside a target's string re-runs these (and
 *  only these) for its machine (stately/index.ts's reuse). */
export const TARGET_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = [unknownTarget.run, unreachableState.run];

/** What runs over each machine: every machine check, and the note of states nested too deep to read. */
export const MACHINE_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = [...STATELY_MACHINE_CHECKS.map((check) => check.run), checkSkippedNesting];

export function runEvalChecks(call: EvalCall): Finding[] {
  try {
    return checkEvalCall(call);
  } catch (error) {
    reportAnalysisError(error, "eval checks");
    return [];
  }
}

/** Checks over all of a file's eval calls at once (an executors object may serve several). */
export function runFileEvalChecks(calls: EvalCall[], file: string): Finding[] {
  try {
    return checkScriptedExecutorKeys(calls, file);
  } catch (error) {
    reportAnalysisError(error, "eval checks");
    return [];
  }
}
