// Every flow check, in catalogue order: one descriptor per file (../../check.ts), run over a FalaiFileModel.
import type { CheckDescriptor } from "../../check";
import { runGuarded } from "../../errors";
import type { Finding } from "../../types";
import type { FalaiFileModel } from "../model";
import { badDuration } from "./bad-duration";
import { badFieldType } from "./bad-field-type";
import { catchAllConflict } from "./catch-all-conflict";
import { duplicateFlow } from "./duplicate-flow";
import { duplicateStep } from "./duplicate-step";
import { dedupe } from "./finding";
import { unknownCondition } from "./unknown-condition";
import { unknownEvent } from "./unknown-event";
import { unknownField } from "./unknown-field";
import { unknownFlow } from "./unknown-flow";
import { unknownStep } from "./unknown-step";
import { unknownAction } from "./unknown-action";
import { unknownTool } from "./unknown-tool";
import { unreachableStep } from "./unreachable-step";
import { untriggeredFlow } from "./untriggered-flow";

export const FALAI_CHECKS: ReadonlyArray<CheckDescriptor<FalaiFileModel>> = [
  unknownField, unknownStep, duplicateStep, duplicateFlow, badDuration, unreachableStep, untriggeredFlow,
  catchAllConflict, unknownTool, unknownAction, unknownFlow, unknownEvent, unknownCondition, badFieldType,
];

export function runChecks(model: FalaiFileModel): Finding[] {
  const out = runGuarded(FALAI_CHECKS.map((check) => check.run), model, "falai check");
  // only this file's findings: flows from other files are reported there, or at this file's reference
  return dedupe(out.filter((f) => f.file === model.file));
}
