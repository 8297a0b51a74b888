// matchesTrajectory: is `expected` an ordered subsequence of `actual` (a state path)?
import { captureCallSite, report } from "../../shared/report";
import { AgentError } from "../errors";
import { errorPayload } from "../json-safe";
import { dottedStateValue, type AnyStateMachine, type StateValue } from "../xstate";
import { machineInfo } from "./machine-info";
import { checkStateRef, refMatches } from "./state-names";

export interface TrajectoryOptions {
  /** Check every expected state against this machine (unknown names throw `unknown-state`). */
  machine?: AnyStateMachine;
}

export interface TrajectoryMatch {
  matched: boolean;
  /** Fraction of expected states found in order (0..1). */
  score: number;
  /** The first expected state not found after the previous match. */
  firstMiss?: { index: number; expected: string };
}

/** Ordered-subsequence match of expected states (by key or dotted path) in an actual state path. */
export function matchesTrajectory(actual: ReadonlyArray<string | StateValue>, expected: ReadonlyArray<string>, options: TrajectoryOptions = {}): TrajectoryMatch {
  const callSite = captureCallSite();
  try {
    if (!Array.isArray(expected) || expected.length === 0) {
      throw new AgentError("empty-trajectory", "matchesTrajectory: the expected trajectory is empty, so any run would match; list the states you expect, in order.");
    }
    if (!Array.isArray(actual)) {
      throw new AgentError("invalid-options", "matchesTrajectory: actual must be a state path (e.g. run.path or run.pathAfter).");
    }
    if (options.machine) {
      const states = machineInfo(options.machine).states;
      for (const ref of expected) checkStateRef(ref, states, "matchesTrajectory");
    }
    const path = actual.map((v) => (typeof v === "string" ? v : dottedStateValue(v)));
    let at = 0;
    let found = 0;
    let firstMiss: TrajectoryMatch["firstMiss"];
    for (let i = 0; i < expected.length; i++) {
      const ref = expected[i]!;
      let j = at;
      while (j < path.length && !refMatches(ref, path[j]!)) j++;
      if (j < path.length) {
        found++;
        at = j + 1;
      } else if (!firstMiss) {
        firstMiss = { index: i, expected: ref };
      }
    }
    const result: TrajectoryMatch = { matched: found === expected.length, score: found / expected.length, ...(firstMiss ? { firstMiss } : {}) };
    report("trajectory", { actual: path, expected: [...expected], ...result }, callSite);
    return result;
  } catch (error) {
    report("trajectory", { error: errorPayload(error) }, callSite);
    throw error;
  }
}
