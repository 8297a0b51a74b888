// empty-trajectory: an expected trajectory written as `[]` (the seed's rule: matchesTrajectory fails an
// empty expectation rather than scoring it).
import type { CheckDescriptor } from "../../check";
import { finding } from "../checks/finding";
import type { EvalFile } from "./eval-file";

export const emptyTrajectory: CheckDescriptor<EvalFile> = {
  code: "empty-trajectory",
  severity: "error",
  description: "An expected trajectory is empty.",
  when: "an expected trajectory that is empty",
  docs: "an expected trajectory literal is `[]` (the seed's rule: the library would match it)",
  run: ({ calls }) => calls.flatMap((call) => (call.emptyTrajectory ? [finding("empty-trajectory", "The expected trajectory is empty: matchesTrajectory fails on an empty expectation instead of scoring it.", call.emptyTrajectory)] : [])),
};
