// One line per finding code: what it means. Used by the CLI (SARIF rule descriptions); the READMEs'
// tables are tested against it (test/analysis/catalogue.test.ts). A check written as a descriptor
// (check.ts) brings its own line: it is listed in DESCRIBED_CHECKS.
import type { CheckDescriptor } from "./check";
import { FALAI_CHECKS } from "./falai/checks";
import { duplicateStateId } from "./stately/checks/duplicate-state-id";
import type { FindingCode } from "./types";

/** The checks written as descriptors (one file each, exporting code, severity, description, docs, run). */
export const DESCRIBED_CHECKS: ReadonlyArray<CheckDescriptor<never>> = [duplicateStateId, ...FALAI_CHECKS];

const described = Object.fromEntries(DESCRIBED_CHECKS.map((c) => [c.code, c.description]));

export const CODE_DESCRIPTIONS = {
  "unknown-target": "A transition target names no state of the machine.",
  "unreachable-state": "No chain of transitions from the initial state enters this state (guards ignored).",
  "unnamed-request": "An inline request has no name (it runs under its generated invoke id): a warning where a scripts key then answers it and another request in call order, else a hint.",
  "unknown-request": "An invoke src is neither a declared request, a declared actor, nor a built-in agent.* source.",
  "missing-initial": "A compound state has child states but no initial state.",
  "unknown-initial": "The initial state names no child state.",
  "unknown-script-key": "A runSeam scripts key matches no request name and no model key of the machine, or a createScriptedExecutors key names no request.",
  "unknown-seam": "seam.request names no request of the machine.",
  "unknown-state-ref": "canReach / matchesTrajectory / explorePaths name a state the machine does not have.",
  "empty-trajectory": "An expected trajectory is empty.",
  "decide-without-events": "A state asks for a decision but neither it nor an ancestor handles any event.",
  "invoke-without-on-error": "An invoke has no onError and no ancestor handles actor errors (off unless enabled).",
  "direct-object-src": "An invoke src is an actor-logic object or machine value that executors cannot rebind.",
  "analysis-skipped": "Part of the code was not analyzed (a file over the size limit, or states nested deeper than the limit), so findings there may be missing.",
  "analysis-failed": "Part of the file's analysis failed (a step threw, or the code nests too deeply to be read), so findings may be missing.",
  ...described,
} as Record<FindingCode, string>;
