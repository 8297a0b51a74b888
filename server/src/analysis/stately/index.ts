// The @statelyai/agent / xstate analyzer: extract the file's model, run the checks, derive symbols,
// references, lenses and graphs (on first need). Machines and agents defined in this file are reported
// here; ones imported from other files only serve eval call sites (their own file reports them).
//
// After an edit that keeps the syntax tree's shape (incremental/edit.ts), the model is kept: an edit inside
// a transition target's string re-resolves that target and re-runs the two checks targets decide
// (unknown-target, unreachable-state) for its machine; an edit inside a comment outside copied source
// text changes nothing but positions. Other findings move with the text; outputs are derived anew from
// the kept model when asked for. Anything else is analyzed again.
import { MACHINE_CHECKS, runEvalChecks, TARGET_CHECKS } from "./checks";
import { evalFile } from "./eval-checks/eval-file";
import { reportAnalysisError, runGuarded } from "../errors";
import type { AstEdit, EditPlace } from "../incremental/edit";
import { shiftFindings } from "../incremental/shift";
import { NO_OUTPUTS, once, type ExtractContext, type LibraryAnalysis, type LibraryAnalyzer, type LibraryOutputs } from "../library";
import type { Finding } from "../types";
import { StatelyExtractor } from "./extract";
import type { FileModel, MachineDef } from "./model";
import { nameUseReferences } from "./name-uses";
import { invokeLenses } from "./lenses";
import type { Outputs } from "./output-parts";
import { agentOutputs, evalOutputs, machineOutputs } from "./outputs";
import { resolveTarget } from "./targets";

/** Files that mention none of these have nothing for this analyzer (a flow file, for instance). */
const STATELY_MARKERS = /@statelyai\/agent|\bxstate\b|createMachine|setupAgent|createTextLogic|createDecisionLogic|runSeam|runAgent|simulateAgent|explorePaths|canReach|matchesTrajectory|executeAgentRequest/;


function nothing(): LibraryAnalysis {
  return { findings: [], definitions: 0, outputs: NO_OUTPUTS, reuse: (_edit, _place, text) => (STATELY_MARKERS.test(text) ? undefined : nothing()) };
}

export const analyzeStately: LibraryAnalyzer = (ctx) => {
  if (!STATELY_MARKERS.test(ctx.parsed.sf.text)) return nothing();
  const x = new StatelyExtractor(ctx);
  const model = x.model(ctx.file);
  if (!model) return nothing();
  for (let i = 0; i < model.evalCalls.length; i++) ctx.noteEvalCall();
  const machineFindings = model.machines.map((m) => MACHINE_CHECKS.map((check) => runGuarded([check], m, "check")));
  const evalFindings = [runEvalChecks(evalFile(model.evalCalls, ctx.file))];
  return statelyAnalysis(ctx, x, model, machineFindings, evalFindings);
};

/** One analysis of the file: the findings per machine and check (so one machine's can be redone), per
 *  eval call, and the outputs on first need. */
function statelyAnalysis(ctx: ExtractContext, x: StatelyExtractor, model: FileModel, machineFindings: Finding[][][], evalFindings: Finding[][]): LibraryAnalysis {
  const findings: Finding[] = [];
  for (const perCheck of machineFindings) for (const list of perCheck) findings.push(...list);
  for (const list of evalFindings) findings.push(...list);
  return {
    findings,
    definitions: model.agents.length + model.machines.length,
    outputs: once(() => outputsOf(ctx, x, model)),
    reuse: (edit, place, text) => {
      try {
        return reuse(ctx, x, model, machineFindings, evalFindings, edit, place, text);
      } catch (error) {
        reportAnalysisError(error, "stately reuse");
        return undefined;
      }
    },
  };
}

function outputsOf(ctx: ExtractContext, x: StatelyExtractor, model: FileModel): LibraryOutputs {
  const out: Outputs = { symbols: [], references: [], lenses: [], graphs: [] };
  for (const agent of model.agents) {
    guard(() => agentOutputs(agent, model.machines.filter((m) => m.agent === agent), out));
  }
  for (const machine of model.machines) {
    guard(() => machineOutputs(machine, out));
    guard(() => invokeLenses(machine, out));
  }
  for (const call of model.evalCalls) guard(() => evalOutputs(call, out));
  if (model.evalCalls.length || ctx.isTestFile()) guard(() => nameUseReferences(ctx.parsed, model, x.values, out.references));
  return out;
}

function reuse(ctx: ExtractContext, x: StatelyExtractor, model: FileModel, machineFindings: Finding[][][], evalFindings: Finding[][], edit: AstEdit, place: EditPlace, text: string): LibraryAnalysis | undefined {
  if (!STATELY_MARKERS.test(text)) return undefined;
  const shift = (list: Finding[]) => shiftFindings(list, place);
  if (edit.kind === "comment") {
    // A comment inside text the model copied (a prompt) would change the copy.
    if (!edit.topLevel && x.copiedTexts.some((n) => n.pos <= edit.start && n.end >= edit.oldEnd)) return undefined;
    return statelyAnalysis(ctx, x, model, machineFindings.map((perCheck) => perCheck.map(shift)), evalFindings.map(shift));
  }
  const holders = x.targetLiterals.get(edit.literal);
  // Only a literal read as transition targets and nothing else, in this file's machines, is patched.
  if (!holders || x.values.stringsRead.has(edit.literal)) return undefined;
  const changed = new Set<MachineDef>();
  for (const { source } of holders) {
    if (!model.machines.includes(source.machine)) return undefined;
    changed.add(source.machine);
  }
  for (const { target, source } of holders) {
    target.text = edit.value;
    const r = resolveTarget(source, edit.value);
    target.status = r.status;
    target.state = r.state;
  }
  const nextFindings = machineFindings.map((perCheck, i) => {
    const machine = model.machines[i]!;
    if (!changed.has(machine)) return perCheck.map(shift);
    machine.reachable = undefined; // reachability follows targets
    return perCheck.map((list, k) => {
      const check = MACHINE_CHECKS[k]!;
      return TARGET_CHECKS.includes(check) ? runGuarded([check], machine, "check") : shift(list);
    });
  });
  return statelyAnalysis(ctx, x, model, nextFindings, evalFindings.map(shift));
}

function guard(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportAnalysisError(error, "stately outputs"); // partial output beats none
  }
}
