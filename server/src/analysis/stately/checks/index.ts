// Every check of the state-machine side, one small function per code. Each takes a machine (or an eval
// call) and returns raw findings; suppression and severity are applied by the workspace.
import { reportAnalysisError } from "../../errors";
import type { Finding } from "../../types";
import type { EvalCall, MachineDef } from "../model";
import { duplicateStateId } from "./duplicate-state-id";
import { checkEvalCall } from "./evals";
import { checkScriptedExecutorKeys } from "./scripted-keys";
import { checkInitials, checkSkippedNesting, checkUnknownTargets, checkUnreachableStates } from "./machine";
import { checkDecideWithoutEvents, checkDirectObjectSrc, checkInvokeWithoutOnError, checkUnknownRequests, checkUnnamedRequests } from "./requests";

/** The checks a transition target's text decides: an edit inside a target's string re-runs these (and
 *  only these) for its machine (stately/index.ts's reuse). */
export const TARGET_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = [checkUnknownTargets, checkUnreachableStates];

export const MACHINE_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = [
  ...TARGET_CHECKS,
  checkInitials,
  checkUnnamedRequests,
  checkUnknownRequests,
  checkDirectObjectSrc,
  checkDecideWithoutEvents,
  checkInvokeWithoutOnError,
  checkSkippedNesting,
  duplicateStateId.run,
];

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
