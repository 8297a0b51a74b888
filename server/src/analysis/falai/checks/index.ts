// Every flow check, in catalogue order. Each is a small function FalaiFileModel → Finding[].
import { runGuarded } from "../../errors";
import type { Finding } from "../../types";
import type { FalaiFileModel } from "../model";
import { badDuration } from "./badDuration";
import { badFieldType } from "./badFieldType";
import { catchAllConflict } from "./catchAllConflict";
import { duplicateFlow } from "./duplicateFlow";
import { duplicateStep } from "./duplicateStep";
import { dedupe, type FalaiCheck } from "./finding";
import { unknownCondition } from "./unknownCondition";
import { unknownEvent } from "./unknownEvent";
import { unknownField } from "./unknownField";
import { unknownFlow } from "./unknownFlow";
import { unknownStep } from "./unknownStep";
import { unknownAction, unknownTool } from "./unknownToolAction";
import { unreachableStep } from "./unreachableStep";
import { untriggeredFlow } from "./untriggeredFlow";

const FALAI_CHECKS: FalaiCheck[] = [
  unknownField, unknownStep, duplicateStep, duplicateFlow, badDuration, unreachableStep, untriggeredFlow,
  catchAllConflict, unknownTool, unknownAction, unknownFlow, unknownEvent, unknownCondition, badFieldType,
];

export function runChecks(model: FalaiFileModel): Finding[] {
  const out = runGuarded(FALAI_CHECKS, model, "falai check");
  // only this file's findings: flows from other files are reported there, or at this file's reference
  return dedupe(out.filter((f) => f.file === model.file));
}
