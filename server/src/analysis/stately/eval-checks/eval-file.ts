// What the eval checks run over: every eval call of one file (runSeam, runAgent, simulateAgent,
// canReach, matchesTrajectory, explorePaths ...), with the machines they name, read by stately/evals.ts.
import type { EvalCall } from "../model";

export interface EvalFile {
  calls: EvalCall[];
  /** The file the calls are in (a finding is reported only where its file is this one). */
  file: string;
}
