// unnamed-request (hint): an unnamed inline request runs under its invoke id: the hint says which, and that
// a name helps. Where the missing name changes what runs (a scripts key feeding it and another call), the
// eval check of the same code warns (../eval-checks/unnamed-request.ts).
import type { CheckDescriptor } from "../../check";
import { ts as morphTs } from "ts-morph";
// Read once: each `ts.x` through ts-morph's re-export is a getter call, and this is the hot path.
import ts = morphTs;
import type { Finding } from "../../types";
import type { MachineDef } from "../model";
import { invokeIdOf } from "../names";
import { finding, insertAt } from "./finding";

export const unnamedRequest: CheckDescriptor<MachineDef> = {
  code: "unnamed-request",
  severity: "warning",
  severityText: "hint",
  description: "An inline request has neither a name nor an invoke id, so it runs under its generated invoke id (a hint).",
  when: "an inline request with neither a name nor an invoke id (the message says the invoke id it runs under)",
  docs: "an inline `createTextLogic` / `createDecisionLogic` / `agent.decide` (also `src: \"agent.decide\"` / `\"agent.generateText\"` / `\"agent.streamText\"` with an `input`) has neither a `name` nor an invoke `id` — the message says the invoke id it runs under",
  quickFix: "add `name: \"<state key>\"`",
  run(machine) {
    const out: Finding[] = [];
    for (const invoke of machine.invokes) {
      const src = invoke.src;
      // A written invoke id names the request (request.name falls back to it): that is a name.
      if (src.kind !== "request" || src.name || invoke.hasId) continue;
      const suggested = invoke.state.key || "request";
      const argAt = src.argAt ?? src.at;
      const fixes = src.arg && ts.isObjectLiteralExpression(src.arg) ? [insertAt(argAt, src.arg.getStart(argAt.sf) + 1, ` name: "${suggested}",`, `Add name: "${suggested}"`)] : [];
      const callee = ts.isCallExpression(src.node) ? src.node.expression : src.node;
      const kind = src.logic === "decision" ? "decision" : "text";
      const id = invokeIdOf(machine, invoke);
      const runsAs = id === undefined ? "the invoke id XState generates for it" : `its invoke id "${id}"`;
      const message = `This inline ${kind} request (${src.via}) has no name, so its request.name is ${runsAs}. A name of its own (name: "${suggested}") keeps scripts, executors and logs keyed the same when states move or are renamed.`;
      out.push({ ...finding("unnamed-request", message, { at: src.at, node: callee }, fixes), severity: "hint" });
    }
    return out;
  },
};
