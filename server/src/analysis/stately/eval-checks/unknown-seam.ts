// unknown-seam: `runSeam(machine, { seam: { request } })` names no request of that machine.
import type { CheckDescriptor } from "../../check";
import { findingWithNearest, machineLabel } from "../checks/finding";
import type { EvalFile } from "./eval-file";

export const unknownSeam: CheckDescriptor<EvalFile> = {
  code: "unknown-seam",
  severity: "error",
  description: "seam.request names no request of the machine.",
  when: "`seam: { request }` names no request of that machine",
  docs: "`seam: { request }` names no request of that machine",
  quickFix: "change to the nearest request",
  run: ({ calls, requestNames }) =>
    calls.flatMap((call) => {
      const { machine, seamRequest } = call;
      if (call.api !== "runSeam" || !machine || !seamRequest) return [];
      const names = requestNames(machine);
      if (!names || names.requests.has(seamRequest.text)) return [];
      return [findingWithNearest("unknown-seam", `seam request "${seamRequest.text}" is not a request of ${machineLabel(machine)}.`, seamRequest, names.requests)];
    }),
};
