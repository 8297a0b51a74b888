// The @statelyai/agent / xstate analyzer: extract the file's model, run the checks, derive symbols,
// references, lenses and graphs. Machines and agents defined in this file are reported here; ones
// imported from other files only serve eval call sites (their own file reports them).
import { runEvalChecks, runMachineChecks } from "./checks";
import { reportAnalysisError } from "../errors";
import type { LibraryAnalysis, LibraryAnalyzer } from "../library";
import { StatelyExtractor } from "./extract";
import { nameUseReferences } from "./nameUses";
import { agentOutputs, evalOutputs, invokeLenses, machineOutputs, type Outputs } from "./outputs";

/** Files that mention none of these have nothing for this analyzer (a flow file, for instance). */
const STATELY_MARKERS = /@statelyai\/agent|\bxstate\b|createMachine|setupAgent|createTextLogic|createDecisionLogic|runSeam|runAgent|simulateAgent|explorePaths|canReach|matchesTrajectory|executeAgentRequest/;

export const analyzeStately: LibraryAnalyzer = (ctx) => {
  const result: LibraryAnalysis = { symbols: [], references: [], findings: [], lenses: [], graphs: [] };
  if (!STATELY_MARKERS.test(ctx.parsed.sf.text)) return result;
  const x = new StatelyExtractor(ctx);
  const model = x.model(ctx.file);
  if (!model) return result;
  const out: Outputs = result;
  for (const agent of model.agents) {
    guard(() => agentOutputs(agent, model.machines.filter((m) => m.agent === agent), out));
  }
  for (const machine of model.machines) {
    guard(() => machineOutputs(machine, out));
    guard(() => invokeLenses(machine, out));
    result.findings.push(...runMachineChecks(machine));
  }
  for (const call of model.evalCalls) {
    ctx.noteEvalCall();
    guard(() => evalOutputs(call, out));
    result.findings.push(...runEvalChecks(call));
  }
  if (model.evalCalls.length || ctx.isTestFile()) guard(() => nameUseReferences(ctx.parsed, model, x.values, result.references));
  return result;
};

function guard(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportAnalysisError(error, "stately outputs"); // partial output beats none
  }
}
