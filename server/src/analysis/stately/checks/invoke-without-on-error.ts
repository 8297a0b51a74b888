// invoke-without-on-error (off unless enabled): an invoke has no onError and no ancestor handles actor
// errors, so a failure stops the run.
import type { CheckDescriptor } from "../../check";
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { finding, selfAndAncestors } from "./finding";

export const invokeWithoutOnError: CheckDescriptor<MachineDef> = {
  code: "invoke-without-on-error",
  severity: "info",
  offByDefault: true,
  description: "An invoke has no onError and no ancestor handles actor errors (off unless enabled).",
  when: "an invoke has no `onError` and no ancestor handles actor errors",
  docs: "an invoke has no `onError` and no ancestor handles `xstate.error.actor.*` (or `*`)",
  run(machine) {
    const out: Finding[] = [];
    for (const invoke of machine.invokes) {
      if (invoke.hasOnError) continue;
      const chain = selfAndAncestors(invoke.state);
      if (chain.some((s) => !s.configComplete || s.handledEvents.some((e) => e === "*" || e.startsWith("xstate.error")))) continue;
      const where = invoke.src.kind === "string" || invoke.src.kind === "request" || invoke.src.kind === "object" ? { at: invoke.src.at, node: invoke.src.node } : invoke;
      out.push(finding("invoke-without-on-error", `This invoke has no onError and no ancestor handles actor errors: a failure stops the run.`, where));
    }
    return out;
  },
};
