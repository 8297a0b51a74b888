// The analysis-skipped note of a machine: states nested too deep to read (said, never silently dropped).
import type { Finding } from "../../types";
import { MAX_NESTING } from "../machine";
import type { MachineDef } from "../model";
import { finding } from "./finding";

export function checkSkippedNesting(machine: MachineDef): Finding[] {
  const state = machine.nestingSkipped;
  if (!state) return [];
  const message = `Not analyzed: states nested more than ${MAX_NESTING} levels deep. The states inside "${state.key}" (level ${state.path.length}) were skipped, so findings about them (and targets into them) may be missing.`;
  return [finding("analysis-skipped", message, { at: state.at, node: state.keyNode ?? state.node })];
}
