// One line per finding code: what it means. Used by the CLI (SARIF rule descriptions); the READMEs'
// tables are tested against it (test/analysis/catalogue.test.ts). A check written as a descriptor
// (check.ts) brings its own line: every descriptor file of the check folders is listed in DESCRIBED_CHECKS
// (through the registries scripts/gen-checks.mjs generates).
import type { CheckDescriptor } from "./check";
import { FALAI_CHECKS } from "./falai/checks/generated-registry";
import { STATELY_MACHINE_CHECKS } from "./stately/checks/generated-registry";
import type { FindingCode } from "./types";

/** The checks written as descriptors (one file each, exporting code, severity, description, docs, run). */
export const DESCRIBED_CHECKS: ReadonlyArray<CheckDescriptor<never>> = [...STATELY_MACHINE_CHECKS, ...FALAI_CHECKS];

const described = Object.fromEntries(DESCRIBED_CHECKS.map((c) => [c.code, c.description]));

export const CODE_DESCRIPTIONS = {
  "unknown-script-key": "A runSeam scripts key matches no request name and no model key of the machine, or a createScriptedExecutors key names no request.",
  "unknown-seam": "seam.request names no request of the machine.",
  "unknown-state-ref": "canReach / matchesTrajectory / explorePaths name a state the machine does not have.",
  "empty-trajectory": "An expected trajectory is empty.",
  "analysis-skipped": "Part of the code was not analyzed (a file over the size limit, or states nested deeper than the limit), so findings there may be missing.",
  "analysis-failed": "Part of the file's analysis failed (a step threw, or the code nests too deeply to be read), so findings may be missing.",
  ...described,
} as Record<FindingCode, string>;
