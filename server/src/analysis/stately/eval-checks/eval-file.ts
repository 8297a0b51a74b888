// What the eval checks run over: every eval call of one file (runSeam, runAgent, simulateAgent,
// canReach, matchesTrajectory, explorePaths ...), with the machines they name, read by stately/evals.ts.
import type { EvalCall, MachineDef } from "../model";
import { requestNamesOf, type Names } from "../names";

export interface EvalFile {
  calls: EvalCall[];
  /** The file the calls are in (a finding is reported only where its file is this one). */
  file: string;
  /** A machine's request names and model keys (names.ts requestNamesOf), read once per machine for all
   *  the checks of this file's calls. */
  requestNames(machine: MachineDef): Names | undefined;
}

/** The eval checks' input for one pass over a file's calls. */
export function evalFile(calls: EvalCall[], file: string): EvalFile {
  const names = new Map<MachineDef, Names | undefined>();
  return {
    calls,
    file,
    requestNames(machine) {
      if (!names.has(machine)) names.set(machine, requestNamesOf(machine));
      return names.get(machine);
    },
  };
}
