// Every check of the state-machine side. A machine check is one descriptor per file (../../check.ts),
// listed by generated-registry.ts (scripts/gen-checks.mjs writes it from this folder's files, in file name
// order); the eval checks are descriptors too, over a file's eval calls (../eval-checks, listed the same
// way). Each returns raw findings; suppression and severity are applied by the workspace.
import { runGuarded } from "../../errors";
import type { Finding } from "../../types";
import type { EvalFile } from "../eval-checks/eval-file";
import { STATELY_EVAL_CHECKS } from "../eval-checks/generated-registry";
import type { MachineDef } from "../model";
import { STATELY_MACHINE_CHECKS } from "./generated-registry";
import { checkSkippedNesting } from "./skipped-nesting";

/** The checks a transition target's text decides (their descriptors say decidedByTargets): an edit inside
 *  a target's string re-runs these (and only these) for its machine (stately/index.ts's reuse). */
export const TARGET_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = STATELY_MACHINE_CHECKS.filter((check) => check.decidedByTargets).map((check) => check.run);

/** What runs over each machine: every machine check, and the note of states nested too deep to read. */
export const MACHINE_CHECKS: ReadonlyArray<(machine: MachineDef) => Finding[]> = [...STATELY_MACHINE_CHECKS.map((check) => check.run), checkSkippedNesting];

/** The eval checks over a file's eval calls, their findings in the order of the text they are about (a
 *  check that throws is reported; the others still run). */
export function runEvalChecks(file: EvalFile): Finding[] {
  const out = runGuarded(STATELY_EVAL_CHECKS.map((check) => check.run), file, "eval check");
  return out.sort((a, b) => (a.file === b.file ? a.range.start - b.range.start : a.file < b.file ? -1 : 1));
}
