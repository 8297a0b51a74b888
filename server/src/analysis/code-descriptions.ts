// One line per finding code: what it means (not the catalog queries of catalog/). Used by the CLI (SARIF
// rule descriptions). Every code has a descriptor (check.ts) in one of the descriptor folders, listed by
// the registries scripts/gen-checks.mjs generates; a code two checks give (over machines and over eval
// calls, or over machines and flows) has both lines, joined.
import { ANALYSIS_CODES } from "./analysis-codes/generated-registry";
import type { CodeDescriptor } from "./check";
import { FALAI_CHECKS } from "./falai/checks/generated-registry";
import { STATELY_MACHINE_CHECKS } from "./stately/checks/generated-registry";
import { STATELY_EVAL_CHECKS } from "./stately/eval-checks/generated-registry";
import type { FindingCode } from "./types";

/** Every code's descriptors: the checks (one file each, exporting code, severity, lines, run) and the
 *  analysis' own codes. */
export const DESCRIBED_CODES: ReadonlyArray<CodeDescriptor> = [...STATELY_MACHINE_CHECKS, ...FALAI_CHECKS, ...STATELY_EVAL_CHECKS, ...ANALYSIS_CODES];

const lines = new Map<FindingCode, string[]>();
for (const d of DESCRIBED_CODES) lines.set(d.code, [...(lines.get(d.code) ?? []), d.description]);

export const CODE_DESCRIPTIONS = Object.fromEntries([...lines].map(([code, list]) => [code, list.join(" ")])) as Record<FindingCode, string>;
