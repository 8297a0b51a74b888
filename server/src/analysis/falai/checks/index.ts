// Every flow check: one descriptor per file (../../check.ts), run over a FalaiFileModel. The list is
// generated from the files of this folder (scripts/gen-checks.mjs writes generated-registry.ts).
import { runGuarded } from "../../errors";
import type { Finding } from "../../types";
import type { FalaiFileModel } from "../model";
import { dedupe } from "./finding";
import { FALAI_CHECKS } from "./generated-registry";

export function runChecks(model: FalaiFileModel): Finding[] {
  const out = runGuarded(FALAI_CHECKS.map((check) => check.run), model, "falai check");
  // only this file's findings: flows from other files are reported there, or at this file's reference
  return dedupe(out.filter((f) => f.file === model.file));
}
