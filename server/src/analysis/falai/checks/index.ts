// Every flow check, in catalogue order. Each is a small function FalaiFileModel → Finding[].
import { runGuarded } from "../../errors";
import type { Finding } from "../../types";
import type { FalaiFileModel } from "../model";
import { badDuration } from "./bad-duration";
import { badFieldType } from "./bad-field-type";
import { catchAllConflict } from "./catch-all-conflict";
import { duplicateFlow } from "./duplicate-flow";
import { duplicateStep } from "./duplicate-step";
import { dedupe, type FalaiCheck } from "./finding";
import { unknownCondition } from "./unknown-condition";
import { unknownEvent } from "./unknown-event";
import { unknownField } from "./unknown-field";
import { unknownFlow } from "./unknown-flow";
import { unknownStep } from "./unknown-step";
import { unknownAction, unknownTool } from "./unknown-tool-action";
import { unreachableStep } from "./unreachable-step";
import { untriggeredFlow } from "./untriggered-flow";

const FALAI_CHECKS: FalaiCheck[] = [
  unknownField, unknownStep, duplicateStep, duplicateFlow, badDuration, unreachableStep, untriggeredFlow,
  catchAllConflict, unknownTool, unknownAction, unknownFlow, unknownEvent, unknownCondition, badFieldType,
];

export function runChecks(model: FalaiFileModel): Finding[] {
  const out = runGuarded(FALAI_CHECKS, model, "falai check");
  // only this file's findings: flows from other files are reported there, or at this file's reference
  return dedupe(out.filter((f) => f.file === model.file));
}
